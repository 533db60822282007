import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { agentTemplateJsonSchema } from "../catalog";
import { validateAgentTemplate } from "../validation";
import { corpus } from "./corpus";

const ajv = new Ajv2020({ allErrors: true });
const jsonSchemaAccepts = ajv.compile(agentTemplateJsonSchema());

describe("agent template corpus", () => {
  it("holds at least 130 templates, valid and invalid", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(130);
    expect(corpus.filter((c) => c.errors).length).toBeGreaterThan(80);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it.each(corpus.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const result = validateAgentTemplate(c.input);
    expect(jsonSchemaAccepts(c.input), "JSON Schema verdict").toBe(c.errors === undefined);
    if (c.errors === undefined) {
      expect(result.ok ? [] : result.errors).toEqual([]);
      return;
    }
    expect(result.ok, "zod verdict").toBe(false);
    const errors = result.ok ? [] : result.errors;
    for (const expected of c.errors) {
      const atPath = errors.filter((e) => e.path === expected.path);
      expect(atPath.map((e) => e.message).join(" | "), `error at "${expected.path}"`).toContain(expected.message);
    }
    expect([...new Set(errors.map((e) => e.path))].sort()).toEqual([...new Set(c.errors.map((e) => e.path))].sort());
  });
});
