import fs from "node:fs/promises";

/** Each run's embedded database is throwaway (~40 MB); E2E_KEEP_DATA=1 keeps it for a post-mortem. */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA) return;
  await fs.rm(dir, { recursive: true, force: true });
}
