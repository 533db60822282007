import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import type { StoredRunData } from "../model/run-data";
import { savedQueryOf, selectsInvocations } from "./query-source";

/**
 * What a live evaluation may be (reference §3.2): saved queries scored by evaluators as their
 * traces arrive. No testsets, testcases or traces by id (they do not arrive), no application
 * (its own traces would feed the next window), and every query selects `trace_type is
 * invocation`, so people's annotation traces are not scored as if they were runs.
 */
export async function checkLiveGraph(db: Executor, projectId: string, data: StoredRunData): Promise<void> {
  const refuse = (why: string): never => {
    throw new BadRequestError(`a live evaluation (flags.is_live) ${why}`, "unsupported_live_graph");
  };
  const inputs = data.steps.filter((s) => s.type === "input");
  if (inputs.length === 0 || inputs.some((s) => !s.references.query_revision))
    refuse("takes its rows from saved queries only: give query_steps and no testsets, testcases or trace ids");
  if (data.steps.some((s) => s.type === "invocation"))
    refuse("scores the traces as they are and invokes no application; drop application_steps");
  if (!data.steps.some((s) => s.type === "annotation")) refuse("needs at least one evaluator step");
  for (const step of inputs) {
    const query = await savedQueryOf(db, projectId, step);
    if (!selectsInvocations(query.filtering))
      refuse(
        `needs each query to select invocation traces: query revision ${query.revisionId} lacks the top-level condition {"field": "trace_type", "value": "invocation"}`,
      );
  }
}
