import { rawQuery, type Executor } from "@/server/db";
import {
  DETAIL_DIMENSIONS,
  ROLLUP_DETAIL,
  ROLLUP_DIMENSION_COLUMNS,
  ROLLUP_KEY_COLUMNS,
  ROLLUP_MAPS,
  ROLLUP_SCALARS,
} from "./store/rollup-columns";
import { lockRollups } from "./store/rollup-upsert";

/** The key of a `summed` row: the whole key but the project, the detail and the dimensions summed over. */
const SUMMED_OVER = DETAIL_DIMENSIONS.map((d) => ROLLUP_DIMENSION_COLUMNS[d]);
const NARROW_KEY = ROLLUP_KEY_COLUMNS.map(([c]) => c).filter(
  (c) => c !== "project_id" && c !== "detail" && !(SUMMED_OVER as readonly string[]).includes(c),
);

/**
 * The user's roll-up rows go, and what they counted is taken out of the rows summed over users
 * (ROLLUP_DETAIL.summed), so a query by agent or model agrees with one by user afterwards.
 */
const ERASE_USER_ROLLUPS = `with gone as (
    delete from span_rollups where project_id = $1 and user_id = $2 and detail = ${ROLLUP_DETAIL.with} returning *),
  sums as (select ${NARROW_KEY.join(", ")}, ${ROLLUP_SCALARS.map((c) => `sum(${c}) as ${c}`).join(", ")},
      ${ROLLUP_MAPS.map((c) => `rollup_map_sum(${c}, 1) as ${c}`).join(", ")}
    from gone group by ${NARROW_KEY.join(", ")}),
  taken as (update span_rollups r set ${ROLLUP_SCALARS.map((c) => `${c} = r.${c} - s.${c}`).join(", ")},
      ${ROLLUP_MAPS.map((c) => `${c} = rollup_map_add(r.${c}, s.${c}, -1)`).join(", ")}
    from sums s where r.project_id = $1 and r.detail = ${ROLLUP_DETAIL.summed}
      and ${NARROW_KEY.map((c) => `r.${c} = s.${c}`).join(" and ")}
      and ${SUMMED_OVER.map((c) => `r.${c} = ''`).join(" and ")})
  select count(*)::int as n from gone`;

/**
 * Erases a user's analytics roll-up rows of a project inside the caller's transaction (a data
 * deletion, server/retention), under the project's roll-up lock like every writer of them.
 * Returns the number of rows deleted.
 */
export async function eraseUserRollups(tx: Executor, projectId: string, userId: string): Promise<number> {
  await lockRollups(tx, [projectId]);
  // Not nested in another statement: one with data-modifying CTEs cannot be.
  return (await rawQuery<{ n: number }>(tx, ERASE_USER_ROLLUPS, [projectId, userId]))[0].n;
}
