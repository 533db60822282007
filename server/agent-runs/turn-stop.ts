/**
 * Why the engine aborted a turn, carried as the abort signal's reason. A turn the service stopped
 * ends as what the service did (a cancel, or a limit it enforces), whatever the harness or the
 * provider's client made of the abort afterwards: a reply cut off by our own abort reads to the
 * SDK like a connection lost mid-stream, and must never be reported as the provider's failure.
 */
export class TurnStop extends Error {
  constructor(
    readonly kind: "cancelled" | "limit",
    message: string,
  ) {
    super(message);
    this.name = "TurnStop";
  }
}

/** The service's reason for aborting `signal`, or undefined when it was not aborted by the engine. */
export function turnStopOf(signal: AbortSignal): TurnStop | undefined {
  return signal.aborted && signal.reason instanceof TurnStop ? signal.reason : undefined;
}
