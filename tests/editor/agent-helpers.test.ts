import { describe, expect, it } from "vitest";
import {
  agentsListPath,
  editorPath,
  switchVariantPath,
  tabOfPath,
  variantTabPath,
} from "@/components/agents/agent-paths";
import { environmentColumns } from "@/components/agents/environment-columns";
import { slugProblem, suggestSlug } from "@/components/agents/slug-suggestion";
import { runsPath } from "@/components/runs/run-paths";
import { runStatusOf } from "@/components/runs/run-status";
import { slugify } from "@/server/core/slugs";

describe("agent URLs", () => {
  it("builds every view's URL", () => {
    expect(agentsListPath()).toBe("/agents");
    expect(agentsListPath({ q: "support bot", archived: true })).toBe("/agents?q=support+bot&archived=1");
    expect(editorPath("a", "v")).toBe("/agents/a/variants/v");
    expect(editorPath("a", "v", "json")).toBe("/agents/a/variants/v?view=json");
    expect(variantTabPath("a", "v", "history")).toBe("/agents/a/variants/v/history");
    expect(variantTabPath("a", "v", "deploy")).toBe("/agents/a/variants/v/deploy");
    expect(runsPath("a", "v")).toBe("/agents/a/variants/v/runs");
    expect(runsPath("a", "v", { status: "failed" })).toBe("/agents/a/variants/v/runs?status=failed");
    expect(runsPath("a", "v", { status: "failed", door: "mcp" })).toBe(
      "/agents/a/variants/v/runs?status=failed&door=mcp",
    );
    expect(runStatusOf("paused")).toBe("paused");
    expect(runStatusOf("done")).toBeUndefined();
  });

  it("knows the tab of a path and keeps it when switching variants", () => {
    expect(tabOfPath("/agents/a/variants/v")).toBe("editor");
    expect(tabOfPath("/agents/a/variants/v/")).toBe("editor");
    expect(tabOfPath("/agents/a/variants/v/history")).toBe("history");
    expect(tabOfPath("/agents/a/variants/v/revisions/r")).toBe("history");
    expect(tabOfPath("/agents/a/variants/v/diff")).toBe("history");
    expect(tabOfPath("/agents/a/variants/v/deploy")).toBe("deploy");
    expect(tabOfPath("/agents/a/variants/v/runs")).toBe("runs");
    expect(switchVariantPath("/agents/a/variants/v1/runs", "a", "v2")).toBe("/agents/a/variants/v2/runs");
    expect(switchVariantPath("/agents/a/variants/v1/deploy", "a", "v2")).toBe("/agents/a/variants/v2/deploy");
    expect(switchVariantPath("/agents/a/variants/v1/revisions/r", "a", "v2")).toBe("/agents/a/variants/v2/history");
  });
});

describe("slugs in the create dialog", () => {
  it("suggests what the server derives", () => {
    for (const name of ["My Agent v2!", "  Ünïcode  naming ", "---", "a".repeat(300)])
      expect(suggestSlug(name)).toBe(slugify(name));
  });

  it("explains a slug the server would reject", () => {
    expect(slugProblem("")).toBeNull();
    expect(slugProblem("support_bot-2")).toBeNull();
    expect(slugProblem("-bad")).toMatch(/letters, digits/);
    expect(slugProblem("has.dot")).toMatch(/letters, digits/);
    expect(slugProblem("a".repeat(129))).toMatch(/128/);
  });
});

describe("environment columns", () => {
  it("puts the usual three first, in promotion order, then the rest by slug", () => {
    const envs = [
      { slug: "production", name: "production" },
      { slug: "qa", name: "qa" },
      { slug: "development", name: "development" },
      { slug: "staging", name: "Staging" },
    ];
    expect(environmentColumns(envs).map((e) => e.name)).toEqual(["Development", "Staging", "Production", "Qa"]);
    expect(environmentColumns(undefined).map((e) => e.slug)).toEqual(["development", "staging", "production"]);
  });
});
