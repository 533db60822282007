/**
 * The layers of server/, for both linters (eslint.config.mjs and .dependency-cruiser.cjs, which is
 * CommonJS). Only the layers below the feature areas, the tRPC door and the composition root are
 * named here; every other folder of server/ is a feature area, ruled the day it is created.
 * ARCHITECTURE.md ("Layers") is the same table in prose: change both together.
 */
const fs = require("node:fs");
const path = require("node:path");

/** The folders of server/ that are not feature areas, by layer, bottom first. */
const LAYERS = {
  /** Errors, ids, config; the schema and drivers; sealed secrets; the egress guard. */
  foundation: ["core", "db", "encryption", "egress"],
  /** The HTTP framework and the background-worker contract: they import the foundations only. */
  framework: ["http", "worker"],
  /** The playground's typed door: enters feature areas through their index.ts. */
  door: ["trpc"],
  /** The composition root: may import anything. */
  root: ["boot"],
};

const DECLARED = Object.values(LAYERS).flat();
const HERE = "scripts/lint/server-layers.cjs";

/** The layer a folder of server/ belongs to: a LAYERS key, or "area". */
function layerOf(folder) {
  for (const [layer, folders] of Object.entries(LAYERS)) if (folders.includes(folder)) return layer;
  return "area";
}

/** The folder names under `<root>/server`. */
function readServerFolders(root) {
  return fs
    .readdirSync(path.join(root, "server"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Whether `<root>/server/<folder>/index.ts` exists. */
const indexOnDisk = (root) => (folder) => fs.existsSync(path.join(root, "server", folder, "index.ts"));

const missingLayerMessage = (folder) =>
  `server/${folder}/ is declared a ${layerOf(folder)} layer in ${HERE} but does not exist: ` +
  `remove it from LAYERS there and from ARCHITECTURE.md's Layers table (or create the folder).`;

const noIndexMessage = (folder) =>
  `server/${folder}/ has no index.ts: every folder of server/ that ${HERE} does not name in LAYERS ` +
  `is a feature area, which other code enters only through its index.ts. Add server/${folder}/index.ts ` +
  `exporting what other areas may use (or, if the folder is a lower layer, name it in LAYERS and in ` +
  `ARCHITECTURE.md's Layers table).`;

/**
 * The layers as the folders are: `folders` and `hasIndex` are injectable (tests pass a list with an
 * area that does not exist). `problems` lists each folder no rule names, as a message saying what
 * to do: a declared layer without its folder, a feature area without its index.ts.
 */
function serverLayers({ folders, hasIndex }) {
  const areas = folders.filter((folder) => !DECLARED.includes(folder));
  const problems = [
    ...DECLARED.filter((folder) => !folders.includes(folder)).map(missingLayerMessage),
    ...areas.filter((folder) => !hasIndex(folder)).map(noIndexMessage),
  ];
  return { ...LAYERS, areas, problems };
}

/** The layers of the tree at `root` (the repository). */
const serverLayersAt = (root) => serverLayers({ folders: readServerFolders(root), hasIndex: indexOnDisk(root) });

const alt = (names) => `(?:${names.join("|")})`;

/**
 * dependency-cruiser's rules between the folders of server/. They name only the lower layers, so a
 * new area is ruled without being listed: whatever is not a lower layer is an area.
 */
function depcruiseRules() {
  const foundations = alt(LAYERS.foundation);
  const lower = alt([...LAYERS.foundation, ...LAYERS.framework]);
  const above = alt([...LAYERS.door, ...LAYERS.root]);
  return [
    {
      name: "foundations-at-the-bottom",
      severity: "error",
      comment: `The foundations (${LAYERS.foundation.join(", ")}) import each other only: no framework, area, door or composition root.`,
      from: { path: `^server/${foundations}/` },
      to: { path: "^server/", pathNot: `^server/${foundations}/` },
    },
    {
      name: "framework-on-the-foundations",
      severity: "error",
      comment:
        "server/http (the HTTP framework) and server/worker (the worker contract) import the foundations only; the composition root in server/boot wires the areas in.",
      from: { path: `^server/(${LAYERS.framework.join("|")})/` },
      to: { path: "^server/", pathNot: [`^server/${foundations}/`, "^server/$1/"] },
    },
    {
      name: "areas-meet-at-their-index",
      severity: "error",
      comment:
        "A folder of server/ imports a feature area (any folder that is not a foundation or the framework) only through its index.ts. The composition root (server/boot) wires areas together and may name their route and worker files.",
      from: { path: "^server/([^/]+)/", pathNot: `^server/${alt(LAYERS.root)}/` },
      to: {
        path: `^server/(?!${lower}/)[^/]+/`,
        pathNot: ["^server/$1/", "^server/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "imports-point-down",
      severity: "error",
      comment: "No folder of server/ imports the tRPC door or the composition root, which sit above the areas.",
      from: { path: `^server/(?!${alt(LAYERS.root)}/)([^/]+)/` },
      to: { path: `^server/${above}/`, pathNot: "^server/$1/" },
    },
  ];
}

module.exports = {
  LAYERS,
  layerOf,
  readServerFolders,
  indexOnDisk,
  noIndexMessage,
  serverLayers,
  serverLayersAt,
  depcruiseRules,
};
