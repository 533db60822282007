import type { RunWire } from "@/server/agent-runs";

/** How each origin reads on a run row: the door the turn came through. */
export const RUN_ORIGIN_LABEL: Record<RunWire["origin"], string> = {
  invoke: "API",
  playground: "Playground",
  openai: "OpenAI API",
  nested: "Nested",
};

/** A run of the editor's draft chat: the unsaved template ran inline, so the run names no agent. */
export const isDraftRun = (run: RunWire) => run.origin === "playground" && !run.agent.references;
