import { rawQuery, type Executor } from "@/server/db";
import { SqlParams } from "@/server/tracing";
import { conversationsWindow, type ConversationsQuery } from "./request";
import { runRowsSql } from "./run-rows";

const iso = (time: string) => `to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a session or a user adds up to over its runs in the window. */
export interface ConversationSummary {
  key: string;
  runs: number;
  errors: number;
  first_at: string;
  last_at: string;
  latency_ms: { mean: number; max: number };
  cost: number;
  tokens: number;
  scores: { count: number; mean?: number; verdict_count: number; pass_rate?: number };
  users: string[];
  agents: string[];
  sessions: number;
}

interface Row {
  key: string;
  runs: string | number;
  errors: string | number;
  first_at: string;
  last_at: string;
  mean_ms: number | string;
  max_ms: number | string;
  cost: number | string;
  tokens: number | string;
  score_count: string | number;
  score_sum: number | string | null;
  verdicts: string | number;
  passes: string | number;
  users: string[] | null;
  agents: string[] | null;
  sessions: string | number;
}

/**
 * The runs of a window grouped by session id or by user id, the most recently active first: runs,
 * errors, latency, cost, tokens, live evaluators' scores. Runs without the key are left out.
 */
export async function conversationSummaries(
  db: Executor,
  projectId: string,
  by: "session" | "user",
  q: ConversationsQuery,
  now: Date,
): Promise<ConversationSummary[]> {
  const { oldest, newest } = conversationsWindow(q, now);
  const params = new SqlParams();
  const column = by === "session" ? "s.session_id" : "s.user_id";
  const where = [`${column} is not null`];
  if (q.user !== undefined) where.push(`s.user_id = ${params.add(q.user, "::text")}`);
  const runs = runRowsSql({
    project: params.add(projectId, "::uuid"),
    from: params.add(oldest.toISOString(), "::timestamptz"),
    to: params.add(newest.toISOString(), "::timestamptz"),
    where,
  });
  const key = by === "session" ? "r.session_id" : "r.user_id";
  const rows = await rawQuery<Row>(
    db,
    `select ${key} as key, count(*) as runs, count(*) filter (where r.error) as errors,
      ${iso("min(r.start_time)")} as first_at, ${iso("max(r.end_time)")} as last_at,
      avg(r.duration_ms) as mean_ms, max(r.duration_ms) as max_ms, sum(r.cost) as cost, sum(r.tokens) as tokens,
      coalesce(sum(r.score_count), 0) as score_count, sum(r.score_sum) as score_sum,
      coalesce(sum(r.verdicts), 0) as verdicts, coalesce(sum(r.passes), 0) as passes,
      array_agg(distinct r.user_id) filter (where r.user_id is not null) as users,
      array_agg(distinct r.agent) filter (where r.agent <> '') as agents,
      count(distinct r.session_id) as sessions
    from (${runs}) r group by ${key} order by max(r.start_time) desc, ${key} limit ${params.add(q.limit ?? 50, "::int")}`,
    params.values,
  );
  return rows.map(toSummary);
}

function toSummary(row: Row): ConversationSummary {
  const scoreCount = Number(row.score_count);
  const verdicts = Number(row.verdicts);
  return {
    key: row.key,
    runs: Number(row.runs),
    errors: Number(row.errors),
    first_at: row.first_at,
    last_at: row.last_at,
    latency_ms: { mean: round(Number(row.mean_ms), 3), max: round(Number(row.max_ms), 3) },
    cost: round(Number(row.cost), 12),
    tokens: Number(row.tokens),
    scores: {
      count: scoreCount,
      ...(scoreCount ? { mean: Number(row.score_sum) / scoreCount } : {}),
      verdict_count: verdicts,
      ...(verdicts ? { pass_rate: Number(row.passes) / verdicts } : {}),
    },
    users: row.users ?? [],
    agents: row.agents ?? [],
    sessions: Number(row.sessions),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
