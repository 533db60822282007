import { redactSecrets } from "@/server/core/secret-masking";
import { findEgressRefusal } from "@/server/egress";
import { isProtectedHeader, WEBHOOK_HEADERS, WEBHOOK_USER_AGENT } from "./contract";
import { signatureHeader } from "./signature";

export interface OutgoingDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  url: string;
  payload: string;
  authMode: "signature" | "authorization";
  secret: string;
  userHeaders: Record<string, string> | null;
  /** Sent as `Authorization` beside the signature (an A2A push's credentials); logged redacted. */
  authorization?: string;
  /** The body's media type when it is not `application/json`. */
  contentType?: string;
}

export interface AttemptResult {
  requestHeaders: Record<string, string>;
  statusCode?: number;
  responseBody?: string;
  error?: string;
  /** The egress guard refused the address: retrying cannot help. */
  refused: boolean;
  timedOut: boolean;
  durationMs: number;
  startedAt: Date;
}

const RESPONSE_BODY_LIMIT = 2048;

/** How an attempt's error starts when the egress guard refused the address. */
export const EGRESS_REFUSED = "egress refused: ";

/** The request headers, and the same with the signature and authorization redacted for the log. */
export function deliveryHeaders(
  d: OutgoingDelivery,
  unixSeconds: number,
): { sent: Record<string, string>; logged: Record<string, string> } {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(d.userHeaders ?? {})) if (!isProtectedHeader(name)) own[name] = value;
  const base = {
    ...own,
    "Content-Type": d.contentType ?? "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.eventType]: d.eventType,
    [WEBHOOK_HEADERS.deliveryId]: d.deliveryId,
    [WEBHOOK_HEADERS.eventId]: d.eventId,
    [WEBHOOK_HEADERS.idempotencyKey]: d.deliveryId,
  };
  if (d.authMode === "authorization") {
    return { sent: { ...base, Authorization: `Bearer ${d.secret}` }, logged: { ...base, Authorization: "[redacted]" } };
  }
  const authorization = d.authorization
    ? { sent: { Authorization: d.authorization }, logged: { Authorization: "[redacted]" } }
    : undefined;
  return {
    sent: {
      ...base,
      ...authorization?.sent,
      [WEBHOOK_HEADERS.signature]: signatureHeader(d.secret, d.payload, unixSeconds),
    },
    logged: { ...base, ...authorization?.logged, [WEBHOOK_HEADERS.signature]: "[redacted]" },
  };
}

/**
 * One POST of a delivery: signed now (a fresh timestamp per attempt), redirects not followed,
 * bounded by `timeoutMs`, through the egress guard. Never throws: every outcome is a result to
 * record.
 */
export async function sendAttempt(
  guardedFetch: typeof fetch,
  d: OutgoingDelivery,
  timeoutMs: number,
  now = new Date(),
): Promise<AttemptResult> {
  const { sent, logged } = deliveryHeaders(d, Math.floor(now.getTime() / 1000));
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const finish = (fields: Partial<AttemptResult>): AttemptResult => ({
    requestHeaders: logged,
    refused: false,
    timedOut: false,
    ...fields,
    durationMs: Math.round(performance.now() - started),
    startedAt: now,
  });
  try {
    const response = await guardedFetch(d.url, {
      method: "POST",
      headers: sent,
      body: d.payload,
      redirect: "manual",
      signal,
    });
    // The endpoint may echo what it was sent (the Authorization header, the signature): the
    // excerpt is shown to every viewer of the delivery log, so it never holds either.
    const echoed = [d.secret, sent[WEBHOOK_HEADERS.signature], d.authorization].filter(
      (v): v is string => v !== undefined,
    );
    const responseBody = redactSecrets(await readPrefix(response, RESPONSE_BODY_LIMIT), echoed);
    return finish({ statusCode: response.status, responseBody });
  } catch (error) {
    const refusal = findEgressRefusal(error);
    if (refusal) return finish({ error: `${EGRESS_REFUSED}${refusal.reason}`, refused: true });
    if (signal.aborted) return finish({ error: `timed out after ${timeoutMs} ms`, timedOut: true });
    return finish({
      error: redactSecrets(describeNetworkError(error), [d.secret, ...(d.authorization ? [d.authorization] : [])]),
    });
  }
}

async function readPrefix(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body cut off mid-way still tells what arrived.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = cause?.message ?? (error as Error).message ?? String(error);
  return cause?.code && !message.includes(cause.code) ? `${cause.code}: ${message}` : message;
}
