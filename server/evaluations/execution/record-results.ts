import type { Database } from "@/server/db";
import type { ResultRow } from "../model/rows";
import { upsertResults, type ResultInput } from "../store/result-store";
import { settleWrittenCells } from "./settle";

/**
 * Cells written from outside the workers (an SDK's results, a person's annotation): upserted on
 * (run, scenario, step, repeat), then their scenarios settle and the run may finish, as when a
 * worker records them.
 */
export async function recordResults(db: Database, projectId: string, inputs: ResultInput[]): Promise<ResultRow[]> {
  const rows = await upsertResults(db, projectId, inputs);
  await settleWrittenCells(db, projectId, rows);
  return rows;
}
