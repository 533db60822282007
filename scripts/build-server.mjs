/**
 * Runs after `next build` (npm's postbuild): compiles server.ts into `<distDir>/server.mjs`, one
 * ESM file that starts in milliseconds and needs no dev dependency (no tsx, no TypeScript) at run
 * time. Packages Next.js also keeps external (next.config.ts's serverExternalPackages, and Next.js
 * itself) load from node_modules; everything else is bundled, as Next.js bundles it for its routes.
 */
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import path from "node:path";
import { distDir } from "./dist-dir.mjs";

const outfile = path.join(distDir, "server.mjs");
await build({
  entryPoints: ["server.ts"],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  tsconfig: "tsconfig.json",
  external: ["next", ...JSON.parse(readFileSync("server-externals.json", "utf8"))],
  // Bundled CommonJS packages call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  logLevel: "warning",
});
console.log(`production server ready: ${outfile}`);
