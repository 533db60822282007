import { describe, expect, it } from "vitest";
import {
  deployedColumnTitle,
  deployedCountLabel,
  deployedSummary,
  kindWord,
} from "@/components/environments/deployed-kinds";

const of = (...kinds: string[]) => kinds.map((kind) => ({ kind }));

describe("what an environment runs, in words", () => {
  it("calls workflows agents and keeps the other kinds' names, singular and plural", () => {
    expect(kindWord("workflow", 1)).toBe("agent");
    expect(kindWord("workflow", 3)).toBe("agents");
    expect(kindWord("application", 2)).toBe("applications");
    expect(kindWord("testset", 2)).toBe("testsets");
  });

  it("counts every kind on its own, agents first, never 'entries'", () => {
    expect(deployedSummary(of("workflow"))).toBe("1 agent");
    expect(deployedSummary(of("application", "workflow", "workflow"))).toBe("2 agents, 1 application");
    expect(deployedSummary(of("evaluator", "application"))).toBe("1 application, 1 evaluator");
    expect(deployedSummary([])).toBe("Nothing deployed");
  });

  it("titles the column after the one kind, or 'Deployed' for a mix", () => {
    expect(deployedColumnTitle(of("workflow", "workflow"))).toBe("Agent");
    expect(deployedColumnTitle(of("application"))).toBe("Application");
    expect(deployedColumnTitle(of("workflow", "application"))).toBe("Deployed");
    expect(deployedColumnTitle([])).toBe("Deployed");
  });

  it("words an environment card's count: one kind by its name, a mix item by item", () => {
    expect(deployedCountLabel(of("workflow"))).toBe("agent deployed");
    expect(deployedCountLabel(of("workflow", "workflow"))).toBe("agents deployed");
    expect(deployedCountLabel(of("workflow", "application"))).toBe("deployed: 1 agent, 1 application");
    // "0 agents deployed" beside "1 agent deployed", not "0 deployed": the same words on every card.
    expect(deployedCountLabel([])).toBe("agents deployed");
  });
});
