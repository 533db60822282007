import { EVENT_TYPES } from "@/shared/event-catalog";

/** Which events a subscription gets: changes only (the usual choice), every event including reads, or a chosen list. */
export type EventChoice = "changes" | "all" | "chosen";

export interface EventOption {
  type: string;
  /** What happened, in words ("a deploy", "a revision was read"). */
  label: string;
  read: boolean;
}

export interface EventGroup {
  name: string;
  label: string;
  events: EventOption[];
}

const GROUP_LABELS: Record<string, string> = {
  workflows: "Agents (workflows)",
  environments: "Environments (deploys)",
  applications: "Applications",
  evaluators: "Evaluators",
  testsets: "Test sets",
  queries: "Queries",
  testcases: "Test cases",
  traces: "Traces",
  webhooks: "Webhooks",
  agents: "Agent runs",
  monitors: "Monitors",
};

const READ_ACTIONS = new Set(["retrieved", "fetched", "queried", "logged"]);

function labelOf(type: string): string {
  const [group] = type.split(".");
  const action = type.split(".").at(-1)!;
  if (type === "environments.revisions.committed") return "a deploy (an environment revision committed)";
  if (type === "workflows.revisions.committed") return "an agent revision committed";
  if (action === "committed") return "a revision committed";
  if (group === "agents") return action === "paused" ? "a run waits for approval or a client tool" : `a run ${action}`;
  if (action === "tested") return "a test delivery sent";
  if (group === "monitors") return action === "fired" ? "a monitor fired (or notifies again)" : "a monitor resolved";
  if (action === "logged") return "a revision history read";
  return `${group === "testcases" || group === "traces" ? group : "a revision"} ${action === "queried" ? "queried" : "read"}`;
}

const isRead = (type: string) => READ_ACTIONS.has(type.split(".").at(-1)!);

/** Events that record a change (commits, deploys, a test): what "changes only" subscribes to. */
export const CHANGE_EVENTS: readonly string[] = EVENT_TYPES.filter((type) => !isRead(type));

/** The catalog grouped by what it is about, changes first within each group. */
export const EVENT_GROUPS: readonly EventGroup[] = [...new Set(EVENT_TYPES.map((type) => type.split(".")[0]))]
  .map((name) => ({
    name,
    label: GROUP_LABELS[name] ?? name,
    events: EVENT_TYPES.filter((type) => type.split(".")[0] === name)
      .map((type) => ({ type, label: labelOf(type), read: isRead(type) }))
      .sort((a, b) => Number(a.read) - Number(b.read)),
  }))
  .sort(
    (a, b) =>
      Number(b.name === "workflows" || b.name === "environments") -
      Number(a.name === "workflows" || a.name === "environments"),
  );

/** The choice a stored list of event types reads as (none stored: every event). */
export function eventChoiceOf(eventTypes: readonly string[] | null | undefined): EventChoice {
  if (!eventTypes?.length) return "all";
  const chosen = new Set(eventTypes);
  return chosen.size === CHANGE_EVENTS.length && CHANGE_EVENTS.every((type) => chosen.has(type)) ? "changes" : "chosen";
}
