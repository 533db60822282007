/**
 * `npm start`: the production server (server.ts, compiled to `<distDir>/server.mjs` by the build)
 * on 127.0.0.1:3000 unless HOST / PORT (or `-H <host>` / `-p <port>`) say otherwise. Relative data
 * paths are made absolute, so `.data/` stays where `npm run dev` keeps it.
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
