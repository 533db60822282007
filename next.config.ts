import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  output: "standalone",
  // Lets a benchmark or second build run beside a dev server without sharing `.next/`.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // `/api/applications/` and `/api/applications` are the same route; do not redirect.
  skipTrailingSlashRedirect: true,
  // Native/wasm or worker-thread packages must load from node_modules, not be bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "pino-pretty"],
  // Migrations are read from disk at start-up; ship them with the standalone server.
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*"] },
  poweredByHeader: false,
};

export default nextConfig;
