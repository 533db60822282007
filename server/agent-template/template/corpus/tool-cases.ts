import { invalid, type CorpusCase } from "./corpus-case";

const TYPES = "builtin, gateway, code, client, reference, platform";
const tool = (entry: Record<string, unknown>) => ({ tools: [entry] });

export const toolCases: CorpusCase[] = [
  invalid("tools not an array", { tools: { type: "builtin", name: "read" } }, ["tools", "must be an array"]),
  invalid("tool entry as a bare name", { tools: ["read"] }, ["tools[0]", '{"type": "builtin", "name": "read"}']),
  invalid("tool entry as a number", { tools: [1] }, ["tools[0]", "must be an object; got 1"]),
  invalid("tool entry without type", tool({ name: "read" }), ["tools[0].type", `is required: one of ${TYPES}`]),
  invalid("unknown tool type", tool({ type: "mcp", name: "x" }), [
    "tools[0].type",
    `must be one of ${TYPES}; got "mcp"`,
  ]),
  invalid(
    "unresolved embed reference in tools",
    tool({
      "@svc.embed": { "@svc.references": { workflow: { slug: "t" } }, "@svc.selector": { path: "parameters.tool" } },
    }),
    ["tools[0]", "unresolved embed reference"],
  ),
  invalid("unknown builtin name", tool({ type: "builtin", name: "web_search" }), [
    "tools[0].name",
    "must be one of read, bash, edit, write, grep, find, ls",
  ]),
  invalid("builtin without name", tool({ type: "builtin" }), ["tools[0].name", "is required"]),
  invalid("builtin with invalid permission", tool({ type: "builtin", name: "read", permission: "never" }), [
    "tools[0].permission",
    "must be one of allow, ask, deny",
  ]),
  invalid("builtin unknown key", tool({ type: "builtin", name: "read", needs_approval: true }), [
    "tools[0].needs_approval",
    "allowed keys: type, name, permission, render",
  ]),
  invalid(
    "gateway missing integration, action and connection",
    tool({ type: "gateway" }),
    ["tools[0].integration", "is required"],
    ["tools[0].action", "is required"],
    ["tools[0].connection", "is required"],
  ),
  invalid(
    "gateway empty provider",
    tool({ type: "gateway", provider: "", integration: "a", action: "b", connection: "c" }),
    ["tools[0].provider", "must not be empty"],
  ),
  invalid(
    "gateway unknown key",
    tool({ type: "gateway", integration: "a", action: "b", connection: "c", script: "x" }),
    ["tools[0].script", 'unknown key "script"'],
  ),
  invalid("code tool without name", tool({ type: "code", script: "x" }), ["tools[0].name", "is required"]),
  invalid("code tool without script", tool({ type: "code", name: "x" }), ["tools[0].script", "is required"]),
  invalid("code tool empty script", tool({ type: "code", name: "x", script: "" }), [
    "tools[0].script",
    "must not be empty",
  ]),
  invalid("code tool unknown runtime", tool({ type: "code", name: "x", script: "x", runtime: "ruby" }), [
    "tools[0].runtime",
    "must be one of python, node",
  ]),
  invalid("code tool secrets not strings", tool({ type: "code", name: "x", script: "x", secrets: [1] }), [
    "tools[0].secrets[0]",
    "must be a string",
  ]),
  invalid("code tool input_schema as an array", tool({ type: "code", name: "x", script: "x", input_schema: [] }), [
    "tools[0].input_schema",
    "must be an object",
  ]),
  invalid("client tool without name", tool({ type: "client" }), ["tools[0].name", "is required"]),
  invalid("client tool with a script", tool({ type: "client", name: "x", script: "x" }), [
    "tools[0].script",
    "allowed keys: type, name, description, input_schema, permission, render",
  ]),
  invalid("reference tool without slug", tool({ type: "reference" }), ["tools[0].slug", "is required"]),
  invalid(
    "reference by environment without environment",
    tool({ type: "reference", ref_by: "environment", slug: "s" }),
    ["tools[0].environment", 'is required when ref_by is "environment"'],
  ),
  invalid("reference by variant with environment", tool({ type: "reference", slug: "s", environment: "prod" }), [
    "tools[0].environment",
    'only valid with ref_by "environment"',
  ]),
  invalid(
    "reference by environment with version",
    tool({ type: "reference", ref_by: "environment", slug: "s", environment: "prod", version: "2" }),
    ["tools[0].version", 'only valid with ref_by "variant"'],
  ),
  invalid(
    "reference by environment missing environment and pinning version",
    tool({ type: "reference", ref_by: "environment", slug: "s", version: "2" }),
    ["tools[0].environment", "is required"],
    ["tools[0].version", 'only valid with ref_by "variant"'],
  ),
  invalid(
    "reference by environment with explicit null environment",
    tool({ type: "reference", ref_by: "environment", slug: "s", environment: null }),
    ["tools[0].environment", "is required"],
  ),
  invalid("reference unknown axis", tool({ type: "reference", ref_by: "tag", slug: "s" }), [
    "tools[0].ref_by",
    "must be one of variant, environment",
  ]),
  invalid("platform tool without op", tool({ type: "platform" }), ["tools[0].op", "is required"]),
  invalid("platform tool with name", tool({ type: "platform", op: "discover_tools", name: "d" }), [
    "tools[0].name",
    "allowed keys: type, op, permission, render",
  ]),
  invalid("render as a string", tool({ type: "client", name: "x", render: "card" }), [
    "tools[0].render",
    "must be an object",
  ]),
  invalid(
    "code tool permission outside the set",
    tool({ type: "code", name: "x", script: "x", permission: "allow_reads" }),
    ["tools[0].permission", 'got "allow_reads"'],
  ),
  invalid(
    "errors in two entries are both reported",
    {
      tools: [
        { type: "builtin", name: "nope" },
        { type: "reference", slug: "s", environment: "prod" },
      ],
    },
    ["tools[0].name", "must be one of"],
    ["tools[1].environment", 'only valid with ref_by "environment"'],
  ),
];
