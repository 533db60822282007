import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateAgentTemplate } from "@/server/agent-template";
import { ROOT } from "./manual-pages";

/** The tools page's "One template, every entry type" example: it must stay a template the service accepts. */
const PAGE = readFileSync(path.join(ROOT, "docs/tools.md"), "utf8");
const section = PAGE.slice(PAGE.indexOf("## One template, every entry type"));
const example = /^```json\n([\s\S]*?)^```$/m.exec(section)?.[1];

describe("the manual's template with every entry type", () => {
  it("is valid, and holds every tool type, an MCP server and a skill", () => {
    expect(example, "docs/tools.md lost its every-entry-type example").toBeTruthy();
    const result = validateAgentTemplate(JSON.parse(example!));
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (!result.ok) return;
    const types = new Set(result.template.tools.map((tool) => tool.type));
    expect([...types].sort()).toEqual(["builtin", "client", "code", "gateway", "platform", "reference"]);
    expect(new Set(result.template.tools.flatMap((tool) => (tool.type === "code" ? [tool.runtime] : [])))).toEqual(
      new Set(["node", "python"]),
    );
    expect(result.template.mcps).toHaveLength(1);
    expect(result.template.skills).toHaveLength(1);
  });
});
