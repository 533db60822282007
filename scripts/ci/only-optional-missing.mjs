// Exits 0 only when npm ci's log (argv[2]) says the lock file is in sync and every package it
// reports missing is an optional dependency of a locked package (a platform binary).
import fs from "node:fs";

const log = fs.readFileSync(process.argv[2], "utf8");
const missing = [...log.matchAll(/Missing: (@?[^@\s]+)@\S* from lock file/g)].map((m) => m[1]);
if (!log.includes("are in sync") || missing.length === 0 || /Invalid: lock file/.test(log)) {
  console.error("npm ci failed for another reason; not falling back");
  process.exit(1);
}
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const optional = new Set(Object.values(lock.packages).flatMap((p) => Object.keys(p.optionalDependencies ?? {})));
const required = missing.filter((name) => !optional.has(name));
if (required.length) {
  console.error(`package-lock.json is out of sync with package.json: ${required.join(", ")}`);
  process.exit(1);
}
console.log(
  `only optional platform packages are missing (${missing.length}); installing from the lock file with npm install`,
);
