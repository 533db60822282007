import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { SignatureScheme } from "../automation-input";

/** A signed request's timestamp may be this far from the app's clock, either way. */
export const REPLAY_WINDOW_SECONDS = 300;

export interface SignedRequest {
  header(name: string): string | null;
  rawBody: string;
}

/** A verified request: `messageId` is the sender's id for it, the key that refuses a replay. */
export type Verification = { ok: true; messageId: string } | { ok: false; reason: string };

/**
 * Checks a request against a trigger's secret in its scheme, with the replay window on schemes
 * that sign a timestamp (Standard Webhooks, Stripe). GitHub signs no time: its replays are
 * refused by the delivery id alone (`X-GitHub-Delivery`, one firing per id). Pure but for the
 * clock it is given.
 */
export function verifySignature(
  scheme: SignatureScheme,
  secret: string,
  request: SignedRequest,
  now: Date,
): Verification {
  if (scheme === "standard_webhooks") return verifyStandardWebhooks(secret, request, now);
  if (scheme === "github") return verifyGithub(secret, request);
  return verifyStripe(secret, request, now);
}

function withinWindow(seconds: number, now: Date): boolean {
  return Number.isFinite(seconds) && Math.abs(now.getTime() / 1000 - seconds) <= REPLAY_WINDOW_SECONDS;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Standard Webhooks, and Svix's `svix-*` headers (the same scheme): the library computes the
 * expected `v1,<base64>` signature; the window is checked on the app's clock, not the library's.
 */
function verifyStandardWebhooks(secret: string, request: SignedRequest, now: Date): Verification {
  const id = request.header("webhook-id") ?? request.header("svix-id");
  const timestamp = request.header("webhook-timestamp") ?? request.header("svix-timestamp");
  const signatures = request.header("webhook-signature") ?? request.header("svix-signature");
  if (!id || !timestamp || !signatures)
    return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !withinWindow(seconds, now))
    return { ok: false, reason: `webhook-timestamp is outside the ${REPLAY_WINDOW_SECONDS} s replay window` };
  const expected = new Webhook(secret).sign(id, new Date(seconds * 1000), request.rawBody);
  const matches = signatures.split(" ").some((candidate) => sameText(candidate, expected));
  return matches ? { ok: true, messageId: id } : { ok: false, reason: "webhook-signature does not match" };
}

/** GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`, the id in `X-GitHub-Delivery`. */
function verifyGithub(secret: string, request: SignedRequest): Verification {
  const signature = request.header("x-hub-signature-256");
  const id = request.header("x-github-delivery");
  if (!signature || !id) return { ok: false, reason: "missing X-Hub-Signature-256 or X-GitHub-Delivery" };
  const expected = `sha256=${createHmac("sha256", secret).update(request.rawBody).digest("hex")}`;
  return sameText(signature, expected)
    ? { ok: true, messageId: id }
    : { ok: false, reason: "X-Hub-Signature-256 does not match" };
}

/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` (the secret used as is);
 * the message id is the event's `id` from the body, or the signed timestamp and signature.
 */
function verifyStripe(secret: string, request: SignedRequest, now: Date): Verification {
  const header = request.header("stripe-signature");
  if (!header) return { ok: false, reason: "missing Stripe-Signature" };
  const parts = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1];
  const v1 = parts.filter(([k]) => k === "v1").map(([, v]) => v);
  if (!t || !/^\d+$/.test(t) || v1.length === 0) return { ok: false, reason: "Stripe-Signature has no t and v1" };
  if (!withinWindow(Number(t), now))
    return { ok: false, reason: `Stripe-Signature's t is outside the ${REPLAY_WINDOW_SECONDS} s replay window` };
  const expected = createHmac("sha256", secret).update(`${t}.${request.rawBody}`).digest("hex");
  if (!v1.some((candidate) => sameText(candidate, expected)))
    return { ok: false, reason: "Stripe-Signature does not match" };
  let eventId: unknown;
  try {
    eventId = (JSON.parse(request.rawBody) as { id?: unknown }).id;
  } catch {
    eventId = undefined;
  }
  return { ok: true, messageId: typeof eventId === "string" && eventId ? eventId : `${t}:${expected}` };
}
