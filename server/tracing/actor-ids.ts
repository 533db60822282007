import { BadRequestError } from "@/server/core/errors";
import { rawQuery, replicaRead, type Database } from "@/server/db";
import { isObject } from "./attributes";
import { parseWindowing } from "./query/windowing";

/**
 * POST /spans/sessions/query and /spans/users/query: the distinct `ag.session.id` / `ag.user.id`
 * values of the project's spans (any span carrying one, as the reference implementation reads them,
 * not only roots: the `session_id`/`user_id` columns hold the root's), each ranked by its activity
 * in the window: its earliest span start (`first_active`), or its latest with `realtime`.
 *
 * The answer's `windowing` is the reference implementation's (descending: `newest` moved to the last
 * row's activity; ascending: `oldest`), so its clients page unchanged, plus `next`: a keyset cursor
 * that keeps the first page's window and continues after the last (activity, id), so ties at the
 * cursor time are not skipped and no id comes back twice (with the bare moved bound, the reference
 * implementation can do both). A page is capped at 100 without a limit, with `windowing` when full.
 */

export type ActorKind = "session" | "user";

const COLUMN: Record<ActorKind, string> = { session: "session_id", user: "user_id" };

interface Cursor {
  at: string;
  id: string;
  oldest?: string;
  newest?: string;
}

export async function queryActorIds(
  db: Database,
  projectId: string,
  kind: ActorKind,
  body: { realtime?: boolean; windowing?: unknown },
) {
  const raw = body.windowing;
  let cursor: Cursor | undefined;
  let rest: unknown = raw;
  if (isObject(raw) && raw.next !== undefined && raw.next !== null) {
    const { next, ...others } = raw;
    cursor = decodeCursor(next);
    rest = others;
  }
  // The reference implementation answers every id for a limit of 0, and nothing for one below.
  if (isObject(rest) && typeof rest.limit === "number" && rest.limit < 1)
    throw new BadRequestError("'windowing.limit' must be at least 1.", "invalid_windowing");
  const window = parseWindowing(rest, "span");
  const asc = window.ascending;
  const oldest = cursor ? cursor.oldest : window.oldest;
  const newest = cursor ? cursor.newest : window.newest;
  const statement = actorIdsSql(projectId, kind, {
    realtime: body.realtime === true,
    ascending: asc,
    oldest,
    newest,
    after: cursor && { at: cursor.at, id: cursor.id },
    limit: window.limit,
  });
  const rows = await replicaRead(db, (r) =>
    rawQuery<{ id: string; activity: string }>(r, statement.text, statement.params),
  );
  const ids = rows.map((r) => r.id);
  const key = kind === "session" ? "session_ids" : "user_ids";
  const last = rows.at(-1);
  const full = last !== undefined && rows.length === window.limit;
  return {
    count: ids.length,
    [key]: ids,
    ...(full
      ? {
          windowing: {
            ...(asc
              ? { oldest: last.activity, ...(window.newest ? { newest: window.newest } : {}) }
              : { newest: last.activity, ...(window.oldest ? { oldest: window.oldest } : {}) }),
            limit: window.limit,
            order: asc ? "ascending" : "descending",
            next: encodeCursor({ at: last.activity, id: last.id, oldest, newest }),
          },
        }
      : {}),
  } as { count: number; windowing?: ActorWindowing } & Record<typeof key, string[]>;
}

/**
 * The statement of one page. Its key condition is one half of the predicate of the partial index
 * `spans_actor_key_idx` (drizzle/0052), word for word, so the planner proves it implies the
 * predicate and only the spans naming an id are read; the value's test (not empty) stays a filter.
 */
export function actorIdsSql(
  projectId: string,
  kind: ActorKind,
  page: {
    realtime: boolean;
    ascending: boolean;
    oldest?: string;
    newest?: string;
    after?: { at: string; id: string };
    limit: number;
  },
): { text: string; params: unknown[] } {
  const asc = page.ascending;
  const params: unknown[] = [projectId];
  const where = [`project_id = $1::uuid`, `(${COLUMN[kind]} is not null or (attributes -> 'ag' -> '${kind}') ? 'id')`];
  const bound = (op: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`start_time ${op} $${params.length}::timestamptz`);
  };
  // The reference implementation's bounds: the moving one is strict, the kept one inclusive.
  bound(asc ? ">" : ">=", page.oldest);
  bound(asc ? "<=" : "<", page.newest);
  let after = "";
  if (page.after) {
    params.push(page.after.at, page.after.id);
    after = `where (activity, id) ${asc ? ">" : "<"} ($${params.length - 1}::timestamptz, $${params.length}::text)`;
  }
  params.push(page.limit);
  const id = `coalesce(${COLUMN[kind]}, attributes #>> '{ag,${kind},id}')`;
  const dir = asc ? "asc" : "desc";
  return {
    text: `select id, to_char(activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as activity from (
         select ${id} as id, ${page.realtime ? "max" : "min"}(start_time) as activity
         from spans where ${where.join(" and ")} and ${id} <> ''
         group by 1) a ${after}
       order by activity ${dir}, id ${dir} limit $${params.length}::int`,
    params,
  };
}

export interface ActorWindowing {
  newest?: string;
  oldest?: string;
  limit: number;
  order: "ascending" | "descending";
  next: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at, c.id, c.oldest ?? null, c.newest ?? null])).toString("base64url");
}

function decodeCursor(next: unknown): Cursor {
  const fail = () => {
    throw new BadRequestError("'windowing.next' is not a cursor this endpoint returned.", "invalid_windowing");
  };
  if (typeof next !== "string") return fail();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(next, "base64url").toString("utf8"));
  } catch {
    return fail();
  }
  const time = (v: unknown) => v === null || (typeof v === "string" && !Number.isNaN(Date.parse(v)));
  if (
    !Array.isArray(value) ||
    value.length !== 4 ||
    typeof value[0] !== "string" ||
    !time(value[0]) ||
    typeof value[1] !== "string" ||
    !time(value[2]) ||
    !time(value[3])
  )
    return fail();
  return { at: value[0], id: value[1], oldest: value[2] ?? undefined, newest: value[3] ?? undefined };
}
