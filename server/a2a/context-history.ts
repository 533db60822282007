import { listRuns, readRunEvents } from "@/server/agent-runs";
import type { Executor } from "@/server/db";
import { replyText, sentText } from "./run-to-task";

/** How many earlier exchanges of a context a new task carries. */
const HISTORY_TASKS = 50;

type Turn = { role: "user" | "assistant"; content: string };

/**
 * The conversation so far in an A2A context: each earlier completed task of it (oldest first) as
 * the caller's message and the agent's answer. The agent session keeps the workspace, not the
 * messages, so a task carries its context's exchange as invoke input, recorded with the run (a
 * takeover replays the same input).
 */
export async function contextHistory(db: Executor, projectId: string, contextId: string): Promise<Turn[]> {
  const { items } = await listRuns(
    db,
    projectId,
    { sessionId: contextId, origin: ["a2a"], status: ["finished"] },
    { limit: HISTORY_TASKS },
  );
  const turns: Turn[] = [];
  for (const run of items.reverse()) {
    const sent = sentText(run.request);
    const reply = replyText((await readRunEvents(db, run.id)).map((entry) => entry.event));
    if (sent === undefined || !reply) continue;
    turns.push({ role: "user", content: sent }, { role: "assistant", content: reply });
  }
  return turns;
}
