import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ajvErrorsToIssues } from "@/components/editor/ajv-issues";
import { agentTemplateJsonSchema, defaultAgentTemplate } from "@/server/agent-template";

// The same options the editor uses in the browser.
const validate = new Ajv2020({ allErrors: true, strict: false, verbose: true }).compile(agentTemplateJsonSchema());
const base = defaultAgentTemplate() as Record<string, unknown>;

function issuesOf(template: unknown) {
  validate(template);
  return ajvErrorsToIssues(validate.errors).map(({ path, message }) => ({ path, message }));
}

describe("ajv errors as editor issues", () => {
  it("accepts the default template", () => {
    expect(issuesOf(base)).toEqual([]);
  });

  it("names the allowed values of an enum, like the server", () => {
    expect(issuesOf({ ...base, runner: { permissions: { default: "sometimes" } } })).toEqual([
      { path: "runner.permissions.default", message: 'must be one of allow, ask, deny, allow_reads; got "sometimes"' },
    ]);
  });

  it("points an unknown key at the key, with the hint for flat model", () => {
    expect(issuesOf({ ...base, model: "gpt-5" })).toEqual([
      { path: "model", message: 'unknown key "model": use llm.model' },
    ]);
    expect(issuesOf({ ...base, harness: { kind: "core_harness", colour: "red" } })).toEqual([
      { path: "harness.colour", message: 'unknown selector key "colour"' },
    ]);
  });

  it("reports a tool entry only against the branch its type selects", () => {
    const tools = [{ type: "builtin", name: "nope" }, { type: "client" }, { type: "wat" }, { name: "x" }];
    expect(issuesOf({ ...base, tools })).toEqual([
      { path: "tools[0].name", message: 'must be one of read, bash, edit, write, grep, find, ls; got "nope"' },
      { path: "tools[1].name", message: "is required" },
      {
        path: "tools[2].type",
        message: 'must be one of builtin, gateway, code, client, reference, platform; got "wat"',
      },
      { path: "tools[3].type", message: "is required" },
    ]);
  });

  it("reads nullable fields as one type", () => {
    expect(issuesOf({ ...base, tools: [{ type: "client", name: "x", permission: "never" }] })).toEqual([
      { path: "tools[0].permission", message: 'must be one of allow, ask, deny; got "never"' },
    ]);
    expect(issuesOf({ ...base, llm: { model: "m", provider: 3 } })).toEqual([
      { path: "llm.provider", message: "must be a string or null; got 3" },
    ]);
  });

  it("drops if/else bookkeeping and duplicates", () => {
    expect(issuesOf({ ...base, llm: { model: 3 } })).toEqual([
      { path: "llm.model", message: "must be a string; got 3" },
    ]);
    expect(issuesOf({ ...base, harness: "core_harness" })).toEqual([
      { path: "harness", message: 'must be an object; got "core_harness"' },
    ]);
  });

  it("marks every issue as a schema error", () => {
    validate({ ...base, model: "x" });
    expect(ajvErrorsToIssues(validate.errors)[0]).toMatchObject({ severity: "error", source: "schema" });
    expect(ajvErrorsToIssues(null)).toEqual([]);
  });
});
