/** A user-supplied URL points somewhere this server will not connect to. */
export class EgressRefusedError extends Error {
  readonly code = "egress_refused";
  constructor(readonly reason: string) {
    super(`Egress refused: ${reason}`);
    this.name = "EgressRefusedError";
  }
}

/** Finds the refusal in an error's cause chain (fetch wraps connection errors in a TypeError). */
export function findEgressRefusal(error: unknown): EgressRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof EgressRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
