import { describe, expect, it } from "vitest";
import { fieldOfPath, issuesForField, issuesWithoutField } from "@/components/editor/issue-fields";
import { serverErrorsToIssues, serverWarningToIssue, stripAgentPrefix } from "@/components/editor/server-issues";

describe("server verdicts in the editor", () => {
  it("strips the revision prefix from commit error paths", () => {
    expect(stripAgentPrefix("data.parameters.agent.llm.model")).toBe("llm.model");
    expect(stripAgentPrefix("data.parameters.agent")).toBe("");
    expect(stripAgentPrefix("data.parameters.agent[0]")).toBe("[0]");
    expect(stripAgentPrefix("runner.permissions.default")).toBe("runner.permissions.default");
    expect(serverErrorsToIssues([{ path: "data.parameters.agent.model", message: "unknown key" }])).toEqual([
      { path: "model", message: "unknown key", severity: "error", source: "server" },
    ]);
  });

  it("splits a warning into the path it starts with and the rest", () => {
    expect(serverWarningToIssue("data.parameters.agent.tools[0].permission is ignored on builtin tools")).toEqual({
      path: "tools[0].permission",
      message: "is ignored on builtin tools",
      severity: "warning",
      source: "server",
    });
    expect(serverWarningToIssue('tools[1] (builtin "bash") has no effect')).toMatchObject({
      path: "tools[1]",
      message: '(builtin "bash") has no effect',
    });
    expect(serverWarningToIssue("Something general.")).toMatchObject({ path: "", message: "Something general." });
  });

  it("maps paths to the form field that shows them", () => {
    expect(fieldOfPath("instructions.agents_md")).toBe("instructions");
    expect(fieldOfPath("llm.connection.slug")).toBe("model");
    expect(fieldOfPath("tools")).toBe("tools");
    expect(fieldOfPath("tools[3].name")).toBe("tool:3");
    expect(fieldOfPath("runner.permissions.default")).toBe("runner");
    expect(fieldOfPath("harness")).toBe("harness");
    expect(fieldOfPath("sandbox.permissions.network.mode")).toBe("sandbox");
    expect(fieldOfPath("model")).toBeNull();
    expect(fieldOfPath("mcps[0].name")).toBeNull();
    expect(fieldOfPath("")).toBeNull();
    const issues = serverErrorsToIssues([
      { path: "tools[1].name", message: "a" },
      { path: "mcps[0].name", message: "b" },
    ]);
    expect(issuesForField(issues, "tool:1").map((i) => i.message)).toEqual(["a"]);
    expect(issuesWithoutField(issues).map((i) => i.message)).toEqual(["b"]);
  });
});
