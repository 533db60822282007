import { NotFoundError } from "@/server/core/errors";
import { rawQuery, type Executor } from "@/server/db";
import { SqlParams } from "@/server/tracing";
import { runRowsSql } from "./run-rows";

/** The most turns a session's page lists. */
export const MAX_TURNS = 500;

export interface SessionTurn {
  trace_id: string;
  name: string;
  agent?: string;
  user_id?: string;
  started_at: string;
  duration_ms: number;
  error: boolean;
  cost: number;
  tokens: number;
  scores: { count: number; mean?: number; verdict_count: number; pass_rate?: number };
}

interface Row {
  trace_id: string;
  span_name: string;
  agent: string;
  user_id: string | null;
  started_at: string;
  duration_ms: number | string;
  error: boolean;
  cost: number | string;
  tokens: number | string;
  score_count: string | number;
  score_sum: number | string | null;
  verdicts: string | number;
  passes: string | number;
}

/** A session's runs in the order they started (its turns), whenever they ran; 404 when it has none. */
export async function sessionTurns(db: Executor, projectId: string, sessionId: string): Promise<SessionTurn[]> {
  const params = new SqlParams();
  const runs = runRowsSql({
    project: params.add(projectId, "::uuid"),
    from: "'-infinity'::timestamptz",
    to: "'infinity'::timestamptz",
    where: [`s.session_id = ${params.add(sessionId, "::text")}`],
  });
  const rows = await rawQuery<Row>(
    db,
    `select r.*, to_char(r.start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at
      from (${runs}) r order by r.start_time, r.trace_id limit ${MAX_TURNS}`,
    params.values,
  );
  if (!rows.length) throw new NotFoundError(`No runs of session "${sessionId}" in this project.`, "session_not_found");
  return rows.map((row) => {
    const scoreCount = Number(row.score_count);
    const verdicts = Number(row.verdicts);
    return {
      trace_id: row.trace_id,
      name: row.span_name,
      ...(row.agent ? { agent: row.agent } : {}),
      ...(row.user_id ? { user_id: row.user_id } : {}),
      started_at: row.started_at,
      duration_ms: Math.round(Number(row.duration_ms) * 1000) / 1000,
      error: row.error,
      cost: Math.round(Number(row.cost) * 1e12) / 1e12,
      tokens: Number(row.tokens),
      scores: {
        count: scoreCount,
        ...(scoreCount ? { mean: Number(row.score_sum) / scoreCount } : {}),
        verdict_count: verdicts,
        ...(verdicts ? { pass_rate: Number(row.passes) / verdicts } : {}),
      },
    };
  });
}
