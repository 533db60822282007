import { isPlainObject } from "./json-path";

/**
 * Choices and defaults the form offers, read from the catalog's JSON Schema, so the form never
 * drifts from what the server accepts. Fallbacks only cover a schema that failed to load.
 */
export interface TemplateOptions {
  runnerDefaults: string[];
  harnessKinds: string[];
  sandboxKinds: string[];
  toolPermissions: string[];
  builtinNames: string[];
  codeRuntimes: string[];
  defaults: {
    agentsMd: string;
    model: string;
    runnerDefault: string;
    harnessKind: string;
    sandboxKind: string;
    codeRuntime: string;
  };
  descriptions: {
    runnerDefault?: string;
    harnessKind?: string;
    sandboxKind?: string;
    agentsMd?: string;
    model?: string;
  };
}

export const FALLBACK_OPTIONS: TemplateOptions = {
  runnerDefaults: ["allow", "ask", "deny", "allow_reads"],
  harnessKinds: ["core_harness", "service_harness", "external_harness"],
  sandboxKinds: ["local", "daytona_sandbox"],
  toolPermissions: ["allow", "ask", "deny"],
  builtinNames: ["read", "bash", "edit", "write", "grep", "find", "ls"],
  codeRuntimes: ["python", "node"],
  defaults: {
    agentsMd: "",
    model: "",
    runnerDefault: "allow_reads",
    harnessKind: "core_harness",
    sandboxKind: "local",
    codeRuntime: "python",
  },
  descriptions: {},
};

type Node = Record<string, unknown>;

function child(node: unknown, key: string): Node | undefined {
  const properties = isPlainObject(node) ? node.properties : undefined;
  const next = isPlainObject(properties) ? properties[key] : undefined;
  return isPlainObject(next) ? next : undefined;
}

function at(schema: unknown, ...keys: string[]): Node | undefined {
  let node: unknown = schema;
  for (const key of keys) node = child(node, key);
  return isPlainObject(node) ? node : undefined;
}

/** `enum` of a node, also inside a nullable `anyOf`. */
function enumOf(node: Node | undefined): string[] | undefined {
  if (!node) return undefined;
  if (Array.isArray(node.enum)) return node.enum.filter((v): v is string => typeof v === "string");
  if (Array.isArray(node.anyOf)) {
    for (const branch of node.anyOf) {
      const found = isPlainObject(branch) ? enumOf(branch) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

function toolBranch(schema: unknown, type: string): Node | undefined {
  const items = at(schema, "tools")?.items;
  const branches = isPlainObject(items) && Array.isArray(items.oneOf) ? items.oneOf : [];
  return branches.find((b): b is Node => isPlainObject(b) && child(b, "type")?.const === type);
}

const str = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
const desc = (node: Node | undefined) => (typeof node?.description === "string" ? node.description : undefined);

export function readTemplateOptions(schema: unknown): TemplateOptions {
  const f = FALLBACK_OPTIONS;
  const runnerDefault = at(schema, "runner", "permissions", "default");
  const harnessKind = at(schema, "harness", "kind");
  const sandboxKind = at(schema, "sandbox", "kind");
  const agentsMd = at(schema, "instructions", "agents_md");
  const model = at(schema, "llm", "model");
  const codeRuntime = child(toolBranch(schema, "code"), "runtime");
  return {
    runnerDefaults: enumOf(runnerDefault) ?? f.runnerDefaults,
    harnessKinds: enumOf(harnessKind) ?? f.harnessKinds,
    sandboxKinds: enumOf(sandboxKind) ?? f.sandboxKinds,
    toolPermissions: enumOf(child(toolBranch(schema, "client"), "permission")) ?? f.toolPermissions,
    builtinNames: enumOf(child(toolBranch(schema, "builtin"), "name")) ?? f.builtinNames,
    codeRuntimes: enumOf(codeRuntime) ?? f.codeRuntimes,
    defaults: {
      agentsMd: str(agentsMd?.default, f.defaults.agentsMd),
      model: str(model?.default, f.defaults.model),
      runnerDefault: str(runnerDefault?.default, f.defaults.runnerDefault),
      harnessKind: str(harnessKind?.default, f.defaults.harnessKind),
      sandboxKind: str(sandboxKind?.default, f.defaults.sandboxKind),
      codeRuntime: str(codeRuntime?.default, f.defaults.codeRuntime),
    },
    descriptions: {
      runnerDefault: desc(runnerDefault),
      harnessKind: desc(harnessKind),
      sandboxKind: desc(sandboxKind),
      agentsMd: desc(agentsMd),
      model: desc(model),
    },
  };
}
