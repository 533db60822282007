import type { Config } from "@/server/core/config";
import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { verifySecretKey } from "./key-check";
import { loadOrCreateKeyFile } from "./key-file";
import { SecretBox } from "./secret-box";

/** The process's SecretBox, made once at boot: APP_SECRET_KEY, else the key file; checked against the database. */
export async function createSecretBox(config: Config, db: Database): Promise<SecretBox> {
  let key = config.secretKey;
  if (!key) {
    const file = loadOrCreateKeyFile(config.dataDir);
    key = file.key;
    if (file.created) {
      logger.warn(
        { file: file.file },
        "generated a secret key for encryption at rest; multi-instance deployments must set APP_SECRET_KEY to one shared key",
      );
    }
  }
  const box = new SecretBox(key);
  await verifySecretKey(db, box);
  return box;
}
