import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["server/**/*.test.ts", "shared/**/*.test.ts", "tests/**/*.test.ts"],
    environment: "node",
    // Each file gets its own process and its own fresh database.
    pool: "forks",
    // One migrated database per run, copied by every test file (tests/helpers/database-template.ts).
    globalSetup: ["tests/helpers/database-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
  },
});
