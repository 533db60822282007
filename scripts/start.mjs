/**
 * `npm start`: the production server (server.ts, compiled to `<distDir>/server.mjs` by the build)
 * on 127.0.0.1:3000 unless HOST / PORT (or `-H <host>` / `-p <port>`) say otherwise. Relative data
 * paths are made absolute, so `.data/` stays where `npm run dev` keeps it.
 *
 * `npm start` runs this with `--max-semi-space-size=64` (package.json; the Dockerfile's CMD too):
 * a young generation of up to 64 MB per semi-space instead of V8's 16. A request allocates a few
 * kilobytes that die with it, so at thousands of requests a second the default one filled every
 * 50-100 ms, and each collection stops every request in flight for a millisecond or more; four
 * times fewer collections move the retrieve's p99 (server/boot/README.md has the figures). V8 sizes
 * its heap when it starts, so this cannot be set from here; running this file with plain `node`
 * works, without that tuning.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { distDir } from "./dist-dir.mjs";

const args = process.argv.slice(2);
const flag = (short, long) => {
  const i = args.findIndex((a) => a === short || a === long);
  return i >= 0 ? args[i + 1] : undefined;
};

process.env.HOST = flag("-H", "--hostname") ?? process.env.HOST ?? "127.0.0.1";
process.env.PORT = flag("-p", "--port") ?? process.env.PORT ?? "3000";
process.env.NODE_ENV = "production";
for (const name of ["DATA_DIR", "PGLITE_DIR"]) {
  const value = process.env[name];
  if (value && !value.includes("://")) process.env[name] = path.resolve(value);
}
process.env.DATA_DIR ??= path.resolve(".data");

const server = path.resolve(distDir, "server.mjs");
if (!existsSync(server)) {
  console.error(`No production build at ${server}: run \`npm run build\` first.`);
  process.exit(1);
}
await import(pathToFileURL(server).href);
