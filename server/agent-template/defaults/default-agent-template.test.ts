import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { agentTemplateJsonSchema, getModel } from "../catalog";
import { validateAgentTemplate } from "../validation";
import { defaultAgentTemplate } from "./default-agent-template";

describe("defaultAgentTemplate", () => {
  const template = defaultAgentTemplate();

  it("matches the interface contract's default template", () => {
    expect(template.instructions.agents_md).toMatch(/greet/i);
    expect(template.instructions.agents_md).toMatch(/one or two short sentences/);
    expect(template.llm).toEqual({ provider: "openai", model: "gpt-5-mini" });
    expect(template.tools.map((t) => [t.type, "name" in t ? t.name : undefined])).toEqual([
      ["builtin", "read"],
      ["builtin", "bash"],
      ["builtin", "edit"],
      ["builtin", "write"],
    ]);
    expect(template.mcps).toEqual([]);
    expect(template.harness.kind).toBe("core_harness");
    expect(template.runner).toMatchObject({ kind: "sidecar", permissions: { default: "allow_reads" } });
    expect(template.sandbox.kind).toBe("local");
  });

  it("uses a curated model", () => {
    expect("provider" in template.llm && getModel(template.llm.provider, template.llm.model)).toBeDefined();
  });

  it("validates with both validators, and holds only what a person sets (no schema expansion)", () => {
    const result = validateAgentTemplate(template);
    expect(result.ok && result.template).toMatchObject(template);
    expect(JSON.stringify(template)).not.toMatch(/"extras"|"render"|null/);
    expect(result.ok && result.warnings).toEqual([]);
    expect(new Ajv2020().compile(agentTemplateJsonSchema())(template)).toBe(true);
  });

  it("returns a fresh object each call", () => {
    template.tools.pop();
    expect(defaultAgentTemplate().tools).toHaveLength(4);
  });
});
