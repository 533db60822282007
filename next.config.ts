import type { NextConfig } from "next";
import serverExternals from "./server-externals.json";
import { apiSecurityHeaders } from "./server/core/security-headers";

// The router's answers under `next dev` and on Vercel (the production server's front sends its
// own, proxy.ts those of pages and tRPC). Fixed at build: only HSTS depends on the environment.
const apiHeaders = Object.entries(
  apiSecurityHeaders({ https: process.env.PUBLIC_URL?.startsWith("https://") ?? false, cspAdditions: {} }),
).map(([key, value]) => ({ key, value }));

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
  async headers() {
    return ["/api", "/api/:path((?!trpc(?:/|$)).*)", "/v1/:path*", "/services/:path*"].map((source) => ({
      source,
      headers: apiHeaders,
    }));
  },
  experimental: {
    // Route types come in through next-env.d.ts instead of Next.js adding `<distDir>/types/**`
    // to tsconfig.json's include: a build with another NEXT_DIST_DIR rewrites no tracked file.
    strictRouteTypes: true,
  },
};

export default nextConfig;
