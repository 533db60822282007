import { describe, expect, it } from "vitest";
import { composioSlug, toObjectSchema } from "./composio-provider";

describe("Composio actions", () => {
  it("names the tool slug from integration and action, or takes a full slug as it is", () => {
    expect(composioSlug({ integration: "github", action: "create_issue", connection: "c" })).toBe(
      "GITHUB_CREATE_ISSUE",
    );
    expect(composioSlug({ integration: "github", action: "GITHUB_CREATE_ISSUE", connection: "c" })).toBe(
      "GITHUB_CREATE_ISSUE",
    );
    expect(composioSlug({ integration: "slack", action: "github_create_issue", connection: "c" })).toBe(
      "SLACK_GITHUB_CREATE_ISSUE",
    );
  });

  it("turns either form of input_parameters into an object JSON Schema", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(toObjectSchema(schema)).toBe(schema);
    expect(
      toObjectSchema({ q: { type: "string", description: "query", required: true }, n: { type: "integer" } }),
    ).toEqual({
      type: "object",
      properties: { q: { type: "string", description: "query" }, n: { type: "integer" } },
      required: ["q"],
    });
    expect(toObjectSchema(undefined)).toEqual({ type: "object", properties: {} });
  });
});
