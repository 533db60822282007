import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Opening failed: the value was sealed under another key, or it was altered. */
export class SecretKeyMismatchError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "SecretKeyMismatchError";
  }
}

/**
 * Encryption at rest (AES-256-GCM). A sealed value is `v1.<key id>.<base64url(iv|ciphertext|tag)>`;
 * the key id (the first 8 hex digits of the key's SHA-256) lets a value sealed under another key
 * fail with a message that says so instead of a bare authentication error.
 */
export class SecretBox {
  readonly keyId: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("SecretBox needs a 32-byte key");
    this.#key = Buffer.from(key);
    this.keyId = createHash("sha256").update(key).digest("hex").slice(0, 8);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(`${VERSION}.${this.keyId}`));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${VERSION}.${this.keyId}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
  }

  open(sealed: string): string {
    const [version, keyId, payload, extra] = sealed.split(".");
    if (version !== VERSION || !keyId || payload === undefined || extra !== undefined) {
      throw new SecretKeyMismatchError("Not a sealed secret (expected v1.<key id>.<data>)");
    }
    if (keyId !== this.keyId) {
      throw new SecretKeyMismatchError(
        `This secret was sealed under key ${keyId}, but the server's key is ${this.keyId}: APP_SECRET_KEY changed`,
      );
    }
    const data = Buffer.from(payload, "base64url");
    if (data.length < IV_BYTES + TAG_BYTES) throw new SecretKeyMismatchError("Sealed secret is truncated");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new SecretKeyMismatchError(
        "Sealed secret failed authentication: it was altered or sealed under another key",
      );
    }
  }
}
