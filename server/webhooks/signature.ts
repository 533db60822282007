import { createHmac, randomInt } from "node:crypto";

/** `X-Service-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` over the exact bytes sent. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 32 alphanumeric characters from the CSPRNG (~190 bits), like the reference implementation's. */
export function generateWebhookSecret(): string {
  let out = "";
  for (let i = 0; i < 32; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
