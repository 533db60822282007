import pino from "pino";
import { redactSecrets } from "./secret-masking";

/**
 * JSON lines on stdout; every request logs through a child carrying its request id. Each line is
 * written without the secrets this process opened (known-secrets.ts), whatever field holds them.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  redact: {
    paths: ["req.headers.authorization", "authorization", "*.authorization", "api_key.key", "key"],
    censor: "[redacted]",
  },
  hooks: { streamWrite: (line) => redactSecrets(line) },
});

export type Logger = pino.Logger;
