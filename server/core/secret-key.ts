/** Decodes a 32-byte key written as 64 hex digits or as base64 / base64url; undefined otherwise. */
export function parseSecretKey(value: string): Buffer | undefined {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) return undefined;
  const key = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
  return key.length === 32 ? key : undefined;
}
