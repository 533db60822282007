/**
 * Runs after `next build` (npm's postbuild): the standalone server serves static files only from
 * its own folder, so copy them there, as the Next.js docs require for `output: "standalone"`.
 */
import { cpSync, existsSync } from "node:fs";
import path from "node:path";
import { distDir } from "./dist-dir.mjs";

const standalone = path.join(distDir, "standalone");
if (!existsSync(path.join(standalone, "server.js"))) {
  console.error(`${standalone}/server.js is missing: run \`next build\` first`);
  process.exit(1);
}
cpSync(path.join(distDir, "static"), path.join(standalone, distDir, "static"), { recursive: true });
if (existsSync("public")) cpSync("public", path.join(standalone, "public"), { recursive: true });
console.log(`standalone server ready: ${standalone}/server.js`);
