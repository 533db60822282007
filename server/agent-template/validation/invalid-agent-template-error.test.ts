import { describe, expect, it } from "vitest";
import { isAppError } from "@/server/core/errors";
import { isInvalidAgentTemplateError, type InvalidAgentTemplateError } from "./invalid-agent-template-error";
import { parseAgentTemplate } from "./parse-agent-template";
import { describeTemplateErrors } from "./template-error";

describe("parseAgentTemplate", () => {
  it("returns the validation of a valid template", () => {
    expect(parseAgentTemplate({ llm: { model: "openai/gpt-5" } }).template.llm.provider).toBe("openai");
  });

  it("throws a 400 carrying every error", () => {
    let thrown: unknown;
    try {
      parseAgentTemplate({ model: "x", runner: "sidecar" });
    } catch (error) {
      thrown = error;
    }
    expect(isInvalidAgentTemplateError(thrown)).toBe(true);
    expect(isAppError(thrown)).toBe(true);
    const error = thrown as InvalidAgentTemplateError;
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_agent_template");
    expect(error.errors?.map((e) => e.path).sort()).toEqual(["model", "runner"]);
    expect(error.message).toContain("model: unknown key");
  });
});

describe("describeTemplateErrors", () => {
  it("joins the first three problems and counts the rest", () => {
    const errors = ["a", "b", "c", "d", "e"].map((path) => ({ path, message: "bad" }));
    expect(describeTemplateErrors(errors)).toBe("Agent template is invalid: a: bad; b: bad; c: bad (and 2 more)");
  });

  it("shows a root error without a path", () => {
    expect(describeTemplateErrors([{ path: "", message: "must be an object; got null" }])).toBe(
      "Agent template is invalid: must be an object; got null",
    );
  });
});
