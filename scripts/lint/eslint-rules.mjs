/**
 * The ESLint rules that know server/'s layers and which area owns which table (loaded by
 * eslint.config.mjs as `local/server-layers` and `local/area-owns-its-tables`). Both read the tree
 * at ESLint's working directory when they run, so a folder or schema file added today is ruled
 * without editing a list.
 */
import fs from "node:fs";
import path from "node:path";
import layersModule from "./server-layers.cjs";
import ownersModule from "./table-owners.cjs";

const { LAYERS, layerOf, noIndexMessage, readServerFolders, serverLayersAt } = layersModule;
const { SCHEMA_DIR, tableOwners, tableOwnersAt } = ownersModule;

/** `file` relative to `root`, with forward slashes. */
const relative = (root, file) => path.relative(root, file).split(path.sep).join("/");

/**
 * The repository path an import names, without extension or trailing `/index` (`server/db/schema`),
 * or undefined for a package.
 */
function importedPath(source, fileRel) {
  let target;
  if (source.startsWith("@/")) target = source.slice(2);
  else if (source.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(fileRel), source));
  else return undefined;
  return target.replace(/\.(ts|tsx|js|mjs|cjs)$/, "").replace(/\/index$/, "");
}

/** The import sources a file names (imports, re-exports, dynamic imports with a literal). */
function onImportSource(check) {
  const fromSource = (node) => {
    if (node.source && typeof node.source.value === "string") check(node.source.value, node.source, node);
  };
  return {
    ImportDeclaration: fromSource,
    ExportNamedDeclaration: fromSource,
    ExportAllDeclaration: fromSource,
    ImportExpression: fromSource,
  };
}

const describe = {
  foundation: `the foundations (${LAYERS.foundation.map((f) => `server/${f}`).join(", ")})`,
  framework: "the framework (server/http, server/worker)",
};

/**
 * Imports between the folders of server/ point down ARCHITECTURE.md's Layers table: foundations
 * import foundations; the framework imports the foundations; areas and the tRPC door import the
 * lower layers and enter other areas through their index.ts; nothing imports the door or the
 * composition root except the root. A file in a feature area without index.ts is reported (the
 * area could not be entered), and so, on scripts/lint/server-layers.cjs, is every folder no rule
 * names.
 */
const serverLayers = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      unruled: "{{message}}",
      loose: "A file directly in server/: put it in the folder of its area or layer (ARCHITECTURE.md, Layers).",
      below:
        "server/{{from}} is part of {{fromLayer}}, which imports {{allowed}} only: not server/{{to}}. Move what both need down, or pass it in from server/boot.",
      pastIndex:
        "server/{{to}} is a feature area: enter it through its index.ts (`@/server/{{to}}`), exporting what you need from server/{{to}}/index.ts.",
      up: "server/{{to}} sits above the feature areas (ARCHITECTURE.md, Layers): only server/boot imports it.",
    },
  },
  create(context) {
    const root = context.cwd;
    const fileRel = relative(root, context.filename);
    if (fileRel === "scripts/lint/server-layers.cjs") {
      return {
        Program(node) {
          for (const message of serverLayersAt(root).problems)
            context.report({ node, loc: { line: 1, column: 0 }, messageId: "unruled", data: { message } });
        },
      };
    }
    const parts = fileRel.split("/");
    if (parts[0] !== "server") return {};
    if (parts.length === 2) return { Program: (node) => context.report({ node, messageId: "loose" }) };
    const from = parts[1];
    const fromLayer = layerOf(from);
    const visitors = onImportSource((source, sourceNode) => {
      const target = importedPath(source, fileRel)?.split("/");
      if (!target || target[0] !== "server" || target.length < 2) return;
      const [, to, ...rest] = target;
      if (to === from || fromLayer === "root") return;
      const toLayer = layerOf(to);
      const report = (messageId, extra = {}) =>
        context.report({ node: sourceNode, messageId, data: { from, to, ...extra } });
      if (fromLayer === "foundation" && toLayer !== "foundation")
        return report("below", { fromLayer: describe.foundation, allowed: "each other" });
      if (fromLayer === "framework" && toLayer !== "foundation")
        return report("below", { fromLayer: describe.framework, allowed: describe.foundation });
      if (toLayer === "door" || toLayer === "root") return report("up");
      if (toLayer === "area" && rest.length > 0) return report("pastIndex");
    });
    if (
      fromLayer === "area" &&
      parts.at(-1) !== "index.ts" &&
      !fs.existsSync(path.join(root, "server", from, "index.ts"))
    ) {
      const message = noIndexMessage(from);
      visitors.Program = (node) =>
        context.report({ node, loc: { line: 1, column: 0 }, messageId: "unruled", data: { message } });
    }
    return visitors;
  },
};

/** SQL words followed by a table name (an optional `only`, `public.` and double quotes). */
const SQL_TABLE =
  /\b(?:from|join|into|update|exists|table|using)\s+(?:only\s+)?(?:"?public"?\s*\.\s*)?"?([a-z_][a-z0-9_]*)/gi;

/**
 * A file of server/<area>/ names no table of another area: not as a table object imported from
 * `@/server/db/schema` (type-only imports may stay), not as `tables.<x>` from `@/server/db`, not in
 * SQL text. The owner exports a function (a reader, an erase function, a guard query, an SQL
 * fragment builder) that others call through its index.ts. On server/db/schema/*.ts: a file that
 * defines tables must be named for an area. (server/db, server/boot and tests are not checked.)
 */
const areaOwnsItsTables = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      foreign:
        "`{{table}}` is a table of {{owner}} ({{file}}): {{area}} may not {{how}}. Call a function {{owner}} exports through server/{{owner}}/index.ts (add one there if none fits: a reader, an erase function, a guard query, an SQL fragment builder).",
      unowned: "{{message}}",
    },
  },
  create(context) {
    const root = context.cwd;
    const fileRel = relative(root, context.filename);
    const parts = fileRel.split("/");
    if (parts[0] !== "server" || parts.length < 3 || /\.test\.tsx?$/.test(fileRel)) return {};
    const area = parts[1];
    if (fileRel.startsWith(`${SCHEMA_DIR}/`)) {
      const name = fileRel.slice(SCHEMA_DIR.length + 1);
      const [problem] = tableOwners({
        files: [{ name, text: context.sourceCode.text }],
        folders: readServerFolders(root),
      }).problems;
      if (!problem) return {};
      return {
        Program: (node) => context.report({ node, loc: { line: 1, column: 0 }, messageId: "unowned", data: problem }),
      };
    }
    if (area === "db" || area === "boot") return {};

    const byJs = new Map();
    const bySql = new Map();
    for (const table of tableOwnersAt(root).tables) {
      if (table.owner === area) continue;
      byJs.set(table.js, table);
      bySql.set(table.sql.toLowerCase(), table);
    }
    const report = (node, table, how) =>
      context.report({
        node,
        messageId: "foreign",
        data: { table: table.sql, owner: table.owner ?? "no area", file: table.file, area: `server/${area}`, how },
      });

    const schemaNames = new Set(); // locals that are the schema module (`import * as schema`)
    const tablesNames = new Set(); // locals that are `tables` of @/server/db
    const dbNames = new Set(); // locals that are @/server/db itself (`import * as db`)
    const isSchema = (p) => p === SCHEMA_DIR || p?.startsWith(`${SCHEMA_DIR}/`);
    const isDb = (p) => p === "server/db";
    const tableOf = (property, computed) =>
      !computed && property.type === "Identifier"
        ? byJs.get(property.name)
        : property.type === "Literal"
          ? byJs.get(property.value)
          : undefined;
    const holdsTables = (object) =>
      object.type === "Identifier"
        ? schemaNames.has(object.name) || tablesNames.has(object.name)
        : object.type === "MemberExpression" &&
          object.object.type === "Identifier" &&
          dbNames.has(object.object.name) &&
          !object.computed &&
          object.property.name === "tables";
    const scanSql = (node, text) => {
      const seen = new Set();
      for (const [, name] of text.matchAll(SQL_TABLE)) {
        const table = bySql.get(name.toLowerCase());
        if (table && !seen.has(table.sql)) {
          seen.add(table.sql);
          report(node, table, "name it in SQL");
        }
      }
    };

    return {
      ImportDeclaration(node) {
        const target = importedPath(node.source.value, fileRel);
        if (node.importKind === "type" || !(isSchema(target) || isDb(target))) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === "ImportNamespaceSpecifier")
            (isSchema(target) ? schemaNames : dbNames).add(specifier.local.name);
          if (specifier.type !== "ImportSpecifier" || specifier.importKind === "type") continue;
          const imported = specifier.imported.name ?? specifier.imported.value;
          if (isDb(target) && imported === "tables") tablesNames.add(specifier.local.name);
          const table = isSchema(target) && byJs.get(imported);
          if (table) report(specifier, table, "import its table object");
        }
      },
      ExportNamedDeclaration(node) {
        if (!node.source || node.exportKind === "type" || !isSchema(importedPath(node.source.value, fileRel))) return;
        for (const specifier of node.specifiers) {
          const table = specifier.exportKind !== "type" && byJs.get(specifier.local.name ?? specifier.local.value);
          if (table) report(specifier, table, "re-export its table object");
        }
      },
      MemberExpression(node) {
        if (!holdsTables(node.object)) return;
        const table = tableOf(node.property, node.computed);
        if (table) report(node, table, "use its table object");
      },
      VariableDeclarator(node) {
        if (node.id.type !== "ObjectPattern" || !node.init || !holdsTables(node.init)) return;
        for (const property of node.id.properties) {
          const table = property.type === "Property" && tableOf(property.key, property.computed);
          if (table) report(property, table, "use its table object");
        }
      },
      Literal(node) {
        if (typeof node.value === "string") scanSql(node, node.value);
      },
      TemplateElement(node) {
        scanSql(node, node.value.cooked ?? node.value.raw);
      },
    };
  },
};

export const rules = { "server-layers": serverLayers, "area-owns-its-tables": areaOwnsItsTables };
