import { createHash, randomBytes } from "node:crypto";

/** Tokens and codes are 32 random bytes, base64url, with a prefix saying what they are; stored by SHA-256. */
export const newSecret = (prefix: "mcpat_" | "mcprt_" | "mcpac_") =>
  `${prefix}${randomBytes(32).toString("base64url")}`;

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** PKCE S256 (RFC 7636): the challenge is the verifier's SHA-256, base64url. */
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
