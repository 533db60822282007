import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // components/: the pure logic of views (formatting, grouping, diffing), tested in node without rendering.
    include: ["server/**/*.test.ts", "shared/**/*.test.ts", "components/**/*.test.ts", "tests/**/*.test.ts"],
    environment: "node",
    // Each file gets its own fresh database (tests/helpers/test-database.ts). Files share their
    // worker process and its loaded modules (isolate: false): importing the server's module graph
    // cost more than most files' tests (measured in tests/README.md). Two workers on two cores.
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    // One migrated database per run, copied by every test file (tests/helpers/database-template.ts).
    globalSetup: ["tests/helpers/database-template.ts"],
    // A hang detector, not a speed test: two workers on a loaded two-core host stretch a test that
    // takes 5 s when quiet past 30 s (the evaluation runs, the Claude Code processes).
    testTimeout: 90_000,
    hookTimeout: 90_000,
    env: { NODE_ENV: "test" },
  },
});
