/**
 * The import graph's rules (run by `npm run lint`). ESLint checks single import lines; these
 * need the whole graph. Why each rule exists is in ARCHITECTURE.md ("Layers").
 */
const FEATURE_AREAS =
  "(agent-template|agent-runs|auth|chat-sessions|deploy-gates|domains|evaluations|events|monitors|openai-compat|pricing|sandbox|system|tracing|trpc|vault|versioning|webhooks|worker)";

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
    {
      name: "http-is-a-framework",
      severity: "error",
      comment:
        "server/http is the HTTP framework: it imports no feature area (the composition root in server/boot wires them in).",
      from: { path: "^server/http/" },
      to: { path: `^server/${FEATURE_AREAS}/` },
    },
    {
      name: "core-and-db-at-the-bottom",
      severity: "error",
      comment: "server/core and server/db import no feature area and not server/http.",
      from: { path: "^server/(core|db)/" },
      to: { path: `^server/(${FEATURE_AREAS.slice(1, -1)}|http|boot)/` },
    },
    {
      name: "areas-meet-at-their-index",
      severity: "error",
      comment:
        "An area of server/ imports another area only through its index.ts. The composition root (server/boot) wires areas together and may name their route and worker files.",
      from: { path: "^server/([^/]+)/", pathNot: "^server/boot/" },
      to: {
        path: `^server/${FEATURE_AREAS}/`,
        pathNot: ["^server/$1/", "^server/[^/]+/index\\.ts$"],
      },
    },
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
