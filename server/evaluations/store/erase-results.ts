import { ageBatch } from "@/server/db";

/**
 * Retention by age of evaluation contents (server/retention calls these through this area's
 * index.ts): the results and scenarios (inputs, outputs) of finished evaluations created before
 * `before`; the evaluation and its summary metrics stay, so a deploy rule's evidence and the
 * history of scores remain. Results go first (children first, so no cascade deletes an unbounded
 * number of rows). Each deletes at most `limit` rows of one project, skipping rows a writer holds
 * (FOR UPDATE SKIP LOCKED), and returns the count.
 */
const UNFINISHED = `('pending', 'queued', 'running')`;

export const deleteFinishedResultsBefore = ageBatch(
  `delete from evaluation_results where id in (
        select res.id from evaluation_runs r join evaluation_results res on res.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status not in ${UNFINISHED}
        limit $3 for update of res skip locked)`,
);

/** The scenarios left without results (deleteFinishedResultsBefore goes first). */
export const deleteFinishedScenariosBefore = ageBatch(
  `delete from evaluation_scenarios where id in (
        select s.id from evaluation_runs r join evaluation_scenarios s on s.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status not in ${UNFINISHED}
          and not exists (select 1 from evaluation_results res where res.scenario_id = s.id)
        limit $3 for update of s skip locked)`,
);
