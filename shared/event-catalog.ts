import { DOMAIN_NAMES } from "./domain-names";

export const REVISION_ACTIONS = ["retrieved", "fetched", "queried", "logged", "committed"] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

export function revisionEventType(domain: string, action: RevisionAction): string {
  return `${domain}.revisions.${action}`;
}

/** Every event type the service emits (the interface contract "Event types"); webhooks subscribe to these. */
export const EVENT_TYPES: readonly string[] = [
  ...DOMAIN_NAMES.flatMap((d) => REVISION_ACTIONS.map((a) => revisionEventType(d, a))),
  "testcases.fetched",
  "testcases.queried",
  "traces.fetched",
  "traces.queried",
  "webhooks.subscriptions.tested",
  "evaluations.runs.started",
  "evaluations.runs.finished",
  "evaluations.runs.failed",
  "agents.runs.finished",
  "agents.runs.failed",
  "agents.runs.paused",
  "budgets.warning.reached",
  "budgets.limit.reached",
  "monitors.alert.fired",
  "monitors.alert.resolved",
  "exposure.settings.updated",
  "improve.optimizations.finished",
  "improve.optimizations.failed",
  "improve.triages.finished",
  "improve.triages.failed",
];
