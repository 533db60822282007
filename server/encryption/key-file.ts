import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseSecretKey } from "@/server/core/secret-key";

export const KEY_FILE_NAME = "secret.key";

/**
 * The embedded default's key: read from `<dataDir>/secret.key`, or created there (mode 0600) on
 * first start. `created` tells the caller to warn that several instances need APP_SECRET_KEY.
 */
export function loadOrCreateKeyFile(dataDir: string): { key: Buffer; file: string; created: boolean } {
  const file = path.join(dataDir, KEY_FILE_NAME);
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // "wx": never overwrite; a concurrent first start loses the race and reads the winner's key.
    fs.writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    return { key, file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const existing = parseSecretKey(fs.readFileSync(file, "utf8"));
  if (!existing)
    throw new Error(`${file} does not hold a 32-byte key (base64 or hex); restore it or set APP_SECRET_KEY`);
  return { key: existing, file, created: false };
}
