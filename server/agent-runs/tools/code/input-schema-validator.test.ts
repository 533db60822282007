import { describe, expect, it } from "vitest";
import { inputSchemaValidator } from "./input-schema-validator";

describe("inputSchemaValidator", () => {
  const withId = (id: string, type: string) => ({
    $id: id,
    type: "object",
    properties: { v: { type } },
    required: ["v"],
  });

  it("compiles a schema with an $id again and again, in any project, each with its own content", () => {
    const a = inputSchemaValidator("project-a", withId("https://example.test/tool", "string"));
    const b = inputSchemaValidator("project-b", withId("https://example.test/tool", "number"));
    const again = inputSchemaValidator("project-a", withId("https://example.test/tool", "boolean"));
    expect([a({ v: "x" }), b({ v: 1 }), again({ v: true })]).toEqual([true, true, true]);
    expect([a({ v: 1 }), b({ v: "x" }), again({ v: "x" })]).toEqual([false, false, false]);
  });

  it("resolves a $ref only inside the schema itself, never to a schema another project compiled", () => {
    inputSchemaValidator("project-a", withId("https://example.test/shared", "string"));
    expect(() => inputSchemaValidator("project-b", { $ref: "https://example.test/shared" })).toThrow(
      /can't resolve reference/,
    );
    const local = inputSchemaValidator("project-b", {
      $defs: { s: { type: "string" } },
      type: "object",
      properties: { v: { $ref: "#/$defs/s" } },
    });
    expect(local({ v: "x" })).toBe(true);
  });

  it("keeps a bounded number of compiled schemas: the least recently used is compiled again", () => {
    const first = inputSchemaValidator("project-c", withId("urn:test:first", "string"));
    expect(inputSchemaValidator("project-c", withId("urn:test:first", "string"))).toBe(first);
    for (let i = 0; i < 300; i++)
      inputSchemaValidator("project-c", { type: "object", properties: { [`k${i}`]: { type: "string" } } });
    expect(inputSchemaValidator("project-c", withId("urn:test:first", "string"))).not.toBe(first);
  });

  it("matches `pattern` with a linear-time engine", () => {
    const validate = inputSchemaValidator("project-d", { type: "string", pattern: "^(a+)+$" });
    // CPU time, not wall time: a backtracking engine would spin for hours, and other processes'
    // load on the host stretches wall time but not this process's CPU.
    const cpu = process.cpuUsage();
    expect(validate(`${"a".repeat(50_000)}!`)).toBe(false);
    expect(validate("aaa")).toBe(true);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });
});
