/**
 * The import graph's rules (run by `npm run lint`). ESLint checks single import lines; these
 * need the whole graph. Why each rule exists is in ARCHITECTURE.md ("Layers").
 */
const path = require("node:path");
const { depcruiseRules, layerOf, readServerFolders, serverLayersAt } = require("./scripts/lint/server-layers.cjs");

/**
 * Every folder of server/ by the layer its rules treat it as, named here so the graph's rules can
 * be read with the folders they rule. The rules themselves come from server-layers.cjs (lower
 * layers by name, every other folder an area); a folder missing here, or named in the wrong layer,
 * stops the run, so a new area is ruled and named the day it is created.
 */
const SERVER_FOLDERS = {
  foundation: ["core", "db", "egress", "encryption"],
  framework: ["http", "worker"],
  door: ["trpc"],
  root: ["boot"],
  area: [
    "agent-runs",
    "agent-template",
    "a2a",
    "analytics",
    "audit",
    "auth",
    "automations",
    "canaries",
    "chat-sessions",
    "controls",
    "deploy-gates",
    "domains",
    "evaluations",
    "events",
    "exposure",
    "improve",
    "mcp-door",
    "monitors",
    "oauth",
    "openai-compat",
    "pricing",
    "redaction",
    "retention",
    "sandbox",
    "streams",
    "system",
    "tracing",
    "vault",
    "versioning",
    "webhooks",
  ],
};

// The layers are read from server/'s folders (scripts/lint/server-layers.cjs names only the lower
// ones): a folder no rule names stops the run with what to do.
const { problems } = serverLayersAt(path.resolve(__dirname));
const root = path.resolve(__dirname);
const folders = readServerFolders(root);
const named = Object.entries(SERVER_FOLDERS).flatMap(([layer, folders]) => folders.map((folder) => [folder, layer]));
for (const folder of folders) {
  const entry = named.find(([name]) => name === folder);
  if (!entry)
    problems.push(
      `server/${folder}/ is named in no layer of SERVER_FOLDERS (.dependency-cruiser.cjs): add it (a feature area unless server-layers.cjs declares it lower)`,
    );
  else if (entry[1] !== layerOf(folder))
    problems.push(
      `server/${folder}/ is named a ${entry[1]} in .dependency-cruiser.cjs but server-layers.cjs rules it as a ${layerOf(folder)}: make them agree`,
    );
}
for (const [folder] of named)
  if (!folders.includes(folder))
    problems.push(`server/${folder}/ is named in .dependency-cruiser.cjs but does not exist: remove it there`);
if (problems.length > 0) throw new Error(`server/ has folders no layer rule names:\n- ${problems.join("\n- ")}`);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import cycles between files. A recursion in what runs (a nested agent run prepares a turn that may run a nested agent) is wired by passing the function in, not by importing back.",
      from: {},
      to: { circular: true },
    },
    ...depcruiseRules(),
    {
      name: "browser-never-imports-server-values",
      severity: "error",
      comment: "components/ runs in the browser; types from server/ are fine (erased), values are not.",
      from: { path: "^components/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.next|node_modules|\\.data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
