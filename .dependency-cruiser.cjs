/**
 * The import graph's rules (run by `npm run lint`). ESLint checks single import lines; these
 * need the whole graph. Why each rule exists is in ARCHITECTURE.md ("Layers").
 */
const path = require("node:path");
const { depcruiseRules, serverLayersAt } = require("./scripts/lint/server-layers.cjs");

// The layers are read from server/'s folders (scripts/lint/server-layers.cjs names only the lower
// ones): a folder no rule names stops the run with what to do.
const { problems } = serverLayersAt(path.resolve(__dirname));
if (problems.length > 0) throw new Error(`server/ has folders no layer rule names:\n- ${problems.join("\n- ")}`);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import cycles between files; the one intended recursion (a nested agent run prepares a turn that may run a nested agent) is listed.",
      from: {},
      to: {
        circular: true,
        viaOnly: { pathNot: ["^server/agent-runs/invoke/(prepare-turn|turn-tools|run-nested)\\.ts$"] },
      },
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
