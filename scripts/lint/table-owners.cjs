/**
 * Which area owns each table, read from the schema files: the owner of a table is the area its
 * file is named for, `server/db/schema/<area>.ts` or `<area>-<part>.ts` (the longest folder of
 * server/ that the file's base name equals or starts with followed by "-").
 */
const fs = require("node:fs");
const path = require("node:path");
const { readServerFolders } = require("./server-layers.cjs");

const SCHEMA_DIR = "server/db/schema";
const TABLE = /export\s+const\s+(\w+)\s*=\s*pgTable\(\s*["'`]([\w]+)["'`]/g;

/** The area a schema file's base name is named for, or undefined. */
function ownerOfSchemaFile(base, folders) {
  return folders
    .filter((folder) => folder !== "db" && (base === folder || base.startsWith(`${folder}-`)))
    .sort((a, b) => b.length - a.length)[0];
}

const unownedMessage = (file) =>
  `${file} defines tables but its name names no folder of server/: name it for the area that owns ` +
  `them, ${SCHEMA_DIR}/<area>.ts or ${SCHEMA_DIR}/<area>-<part>.ts.`;

/**
 * The tables in `files` ({ name: "tracing.ts", text }) and their owners among `folders`:
 * `tables` is [{ js, sql, owner, file }]; `problems` holds a message per file that defines tables
 * and names no area.
 */
function tableOwners({ files, folders }) {
  const tables = [];
  const problems = [];
  for (const { name, text } of files) {
    const file = `${SCHEMA_DIR}/${name}`;
    const found = [...text.matchAll(TABLE)];
    if (found.length === 0) continue;
    const owner = ownerOfSchemaFile(name.replace(/\.ts$/, ""), folders);
    if (!owner) problems.push({ file, message: unownedMessage(file) });
    for (const [, js, sql] of found) tables.push({ js, sql, owner, file });
  }
  return { tables, problems };
}

let cached;
/**
 * The owners as the tree at `root` has them. Re-read when a schema file or server/'s folder list
 * changes, checked at most once a second (a lint run asks once per file; an editor stays open).
 */
function tableOwnersAt(root) {
  const now = Date.now();
  if (cached?.root === root && now - cached.checked < 1000) return cached.value;
  const dir = path.join(root, SCHEMA_DIR);
  const names = fs.readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
  const folders = readServerFolders(root);
  const stamps = names.map((name) => fs.statSync(path.join(dir, name)).mtimeMs);
  const key = JSON.stringify([names, stamps, folders]);
  if (cached?.root !== root || cached.key !== key) {
    const files = names.map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), "utf8") }));
    cached = { root, key, value: tableOwners({ files, folders }) };
  }
  cached.checked = now;
  return cached.value;
}

module.exports = { SCHEMA_DIR, ownerOfSchemaFile, tableOwners, tableOwnersAt };
