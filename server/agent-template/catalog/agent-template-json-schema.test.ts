import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../template";
import { agentTemplateJsonSchema } from "./agent-template-json-schema";
import type { JsonSchema } from "./json-schema";

/** Every object schema with declared properties, with its JSON pointer. */
function objectSchemas(node: unknown, pointer = "#"): [string, JsonSchema][] {
  if (typeof node !== "object" || node === null) return [];
  const found: [string, JsonSchema][] = [];
  const schema = node as JsonSchema;
  if (schema.type === "object" && schema.properties) found.push([pointer, schema]);
  for (const [key, child] of Object.entries(schema)) {
    if (key === "default") continue;
    found.push(...objectSchemas(child, `${pointer}/${key}`));
  }
  return found;
}

describe("agentTemplateJsonSchema", () => {
  const schema = agentTemplateJsonSchema();
  const properties = schema.properties as Record<string, JsonSchema>;

  it("is draft 2020-12 and compiles in ajv's strict mode", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(() => new Ajv2020({ strict: true }).compile(schema)).not.toThrow();
  });

  it("closes every object that declares properties", () => {
    const objects = objectSchemas(schema).filter(
      ([pointer]) => !pointer.includes("/if") && !pointer.includes("/else") && !pointer.includes("/then"),
    );
    expect(objects.length).toBe(25);
    for (const [pointer, object] of objects) expect(object.additionalProperties, pointer).toBe(false);
  });

  it("makes every top-level field optional", () => {
    expect(schema.required ?? []).toEqual([]);
    expect(Object.keys(properties)).toEqual([
      "instructions",
      "llm",
      "tools",
      "mcps",
      "skills",
      "harness",
      "runner",
      "sandbox",
    ]);
  });

  it("carries expanded defaults", () => {
    expect(properties.llm?.default).toEqual({ model: DEFAULT_MODEL, provider: null, connection: null, extras: {} });
    expect(properties.runner?.default).toEqual({
      kind: "sidecar",
      permissions: { default: "allow_reads" },
      extras: {},
    });
    expect(properties.tools?.default).toEqual([]);
  });

  it("carries descriptions", () => {
    for (const name of ["instructions", "llm", "tools", "mcps", "skills", "harness", "runner", "sandbox"]) {
      expect(properties[name]?.description, name).toEqual(expect.any(String));
    }
  });

  it("returns a fresh copy each call", () => {
    const first = agentTemplateJsonSchema();
    first.title = "changed";
    expect(agentTemplateJsonSchema().title).toBe("Agent template");
  });
});
