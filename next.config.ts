import type { NextConfig } from "next";
import serverExternals from "./server-externals.json";

const nextConfig: NextConfig = {
  // Lets a benchmark or second build run beside a dev server without sharing `.next/`.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // `/api/applications/` and `/api/applications` are the same route; do not redirect.
  skipTrailingSlashRedirect: true,
  // Native/wasm, worker-thread or optional-import packages load from node_modules, not bundled;
  // scripts/build-server.mjs keeps the same list (server-externals.json) out of server.mjs.
  serverExternalPackages: serverExternals,
  // Migrations are read from disk at start-up; ship them with the traced output (Vercel).
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*"] },
  poweredByHeader: false,
  experimental: {
    // Route types come in through next-env.d.ts instead of Next.js adding `<distDir>/types/**`
    // to tsconfig.json's include: a build with another NEXT_DIST_DIR rewrites no tracked file.
    strictRouteTypes: true,
  },
};

export default nextConfig;
