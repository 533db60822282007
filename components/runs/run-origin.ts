import type { RunWire } from "@/server/agent-runs";

/** How each origin reads on a run row: the door the turn came through. */
export const RUN_ORIGIN_LABEL: Record<RunWire["origin"], string> = {
  invoke: "API",
  playground: "Playground",
  openai: "OpenAI API",
  nested: "Nested",
  automation: "Automation",
  mcp: "MCP",
  a2a: "A2A",
};

/** The doors the Runs tab filters by, in the order its select lists them. */
export const RUN_ORIGIN_CHOICES = Object.keys(RUN_ORIGIN_LABEL) as RunWire["origin"][];

/** A `?door=` value as a door, or undefined when it names none. */
export const runOriginOf = (value: string | undefined): RunWire["origin"] | undefined =>
  RUN_ORIGIN_CHOICES.find((choice) => choice === value);

type Reference = { slug?: string | null; version?: string | null } | undefined;

/** A run of the editor's draft chat: the unsaved template ran inline, so the run names no revision. */
export const isDraftRun = (run: RunWire) => run.origin === "playground" && !run.agent.references?.workflow_revision;

/** What served a run: the revision's version, and the environment it was resolved through, if any. */
export function servedBy(run: Pick<RunWire, "agent">): { version?: string; environment?: string } {
  const refs = run.agent.references ?? {};
  const revision = refs.workflow_revision as Reference;
  const environment = refs.environment as Reference;
  return {
    ...(revision?.version ? { version: `v${revision.version}` } : {}),
    ...(environment?.slug ? { environment: environment.slug } : {}),
  };
}
