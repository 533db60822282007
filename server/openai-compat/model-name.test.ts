import { describe, expect, it } from "vitest";
import { modelReferences, parseModelName } from "./model-name";

describe("parseModelName", () => {
  it("reads an agent, an environment and a pinned revision", () => {
    expect(parseModelName("greeter")).toEqual({ agent: "greeter" });
    expect(parseModelName("greeter@production")).toEqual({ agent: "greeter", environment: "production" });
    expect(parseModelName("greeter@default:3")).toEqual({ agent: "greeter", variant: "default", version: "3" });
    expect(modelReferences(parseModelName("greeter@default:3"))).toEqual({
      workflow: { slug: "greeter" },
      workflow_variant: { slug: "default" },
      workflow_revision: { version: "3" },
    });
    expect(modelReferences(parseModelName("greeter@production"))).toEqual({
      workflow: { slug: "greeter" },
      environment: { slug: "production" },
    });
  });

  it("refuses what names nothing, on param model", () => {
    for (const bad of ["", "gpt-4o.mini", "a@b@c", "a@b:c", "a@:1", "a@b:1:2", "-x", "a b"]) {
      expect(() => parseModelName(bad), bad).toThrowError(
        expect.objectContaining({
          status: 400,
          code: "invalid_model",
          errors: [{ path: "model", message: "not a model name" }],
        }),
      );
    }
  });
});
