// Fails when any installed package's version differs from package-lock.json.
import fs from "node:fs";

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const wrong = [];
let checked = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!key.startsWith("node_modules/") || entry.link || !fs.existsSync(`${key}/package.json`)) continue;
  const version = JSON.parse(fs.readFileSync(`${key}/package.json`, "utf8")).version;
  if (version !== entry.version) wrong.push(`${key}: installed ${version}, locked ${entry.version}`);
  checked++;
}
if (wrong.length) {
  console.error(`installed packages differ from package-lock.json:\n  ${wrong.join("\n  ")}`);
  process.exit(1);
}
console.log(`all ${checked} installed packages have their locked versions`);
