import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A receiver's verification of `X-Service-Signature: t=<unix>,v1=<hex>`, written the way Stripe's
 * and Standard Webhooks' libraries verify theirs: the raw body, every v1 candidate compared in
 * constant time, and a timestamp tolerance against replays. Throws with the reason.
 */
export function verifyServiceSignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  options: { toleranceSec?: number; now?: number } = {},
): number {
  if (!header) throw new Error("missing signature header");
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && /^\d+$/.test(v)) timestamp = Number(v);
    if (k === "v1" && /^[0-9a-f]{64}$/.test(v)) candidates.push(v);
  }
  if (timestamp === undefined || candidates.length === 0) throw new Error("malformed signature header");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSec ?? 300)) throw new Error("timestamp outside the tolerance");
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  if (!candidates.some((c) => timingSafeEqual(Buffer.from(c, "hex"), expected)))
    throw new Error("no matching signature");
  return timestamp;
}

export class WebhookVerificationError extends Error {}

/**
 * The Standard Webhooks / Svix library's shape (`new Webhook(secret).verify(payload, headers)`,
 * headers looked up case-insensitively, a 5-minute tolerance both ways, the parsed body returned)
 * written against this service's headers instead of `webhook-id`/`webhook-signature`.
 */
export class ServiceWebhook {
  constructor(private readonly secret: string) {}

  verify(payload: string | Buffer, headers: Record<string, string | string[] | undefined>, now = Date.now()): unknown {
    const lower = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]),
    );
    const id = lower["x-service-delivery-id"];
    const signature = lower["x-service-signature"];
    if (!id || !signature) throw new WebhookVerificationError("Missing required headers");
    if (lower["idempotency-key"] !== id)
      throw new WebhookVerificationError("Idempotency-Key differs from the delivery id");
    const body = typeof payload === "string" ? payload : payload.toString("utf8");
    try {
      verifyServiceSignature(this.secret, body, signature, { toleranceSec: 300, now: Math.floor(now / 1000) });
    } catch (error) {
      throw new WebhookVerificationError((error as Error).message);
    }
    return JSON.parse(body);
  }
}
