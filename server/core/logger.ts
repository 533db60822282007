import pino from "pino";

/** JSON lines on stdout; every request logs through a child carrying its request id. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  redact: {
    paths: ["req.headers.authorization", "authorization", "*.authorization", "api_key.key", "key"],
    censor: "[redacted]",
  },
});

export type Logger = pino.Logger;
