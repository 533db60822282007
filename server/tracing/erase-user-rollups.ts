import { rawQuery, type Executor } from "@/server/db";
import {
  DETAIL_DIMENSIONS,
  NARROW_DETAIL,
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

const DIMENSION_COLUMNS = Object.values(ROLLUP_DIMENSION_COLUMNS);
/** The narrow day rows the user's counts are taken out of: every family but the user's own, whose row of the user goes. */
const NARROW_FAMILIES = (Object.entries(NARROW_DETAIL) as [keyof typeof NARROW_DETAIL, number][])
  .filter(([name]) => name !== "user")
  .map(([name, detail]) => `(${detail}, '${name === "total" ? "" : ROLLUP_DIMENSION_COLUMNS[name]}')`);
const NARROW_KEYS = ["detail", "bucket", "root", "trace_type", ...DIMENSION_COLUMNS];

/**
 * The user's roll-up rows go, and what they counted is taken out of the rows summed over users
 * (ROLLUP_DETAIL.summed) and of the narrow day rows (NARROW_DETAIL; the user's own narrow row
 * goes), so a query by agent or model agrees with one by user afterwards.
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
      and ${SUMMED_OVER.map((c) => `r.${c} = ''`).join(" and ")}),
  narrow_sums as (select f.detail, g.bucket, g.root, g.trace_type,
      ${DIMENSION_COLUMNS.map((c) => `case when f.dimension = '${c}' then g.${c} else '' end as ${c}`).join(", ")},
      ${ROLLUP_SCALARS.map((c) => `sum(g.${c}) as ${c}`).join(", ")},
      ${ROLLUP_MAPS.map((c) => `rollup_map_sum(g.${c}, 1) as ${c}`).join(", ")}
    from gone g cross join (values ${NARROW_FAMILIES.join(", ")}) as f(detail, dimension)
    where g.grain = 'day' group by ${NARROW_KEYS.map((_, i) => i + 1).join(", ")}),
  narrowed as (update span_rollups r set ${ROLLUP_SCALARS.map((c) => `${c} = r.${c} - s.${c}`).join(", ")},
      ${ROLLUP_MAPS.map((c) => `${c} = rollup_map_add(r.${c}, s.${c}, -1)`).join(", ")}
    from narrow_sums s where r.project_id = $1 and r.grain = 'day'
      and ${NARROW_KEYS.map((c) => `r.${c} = s.${c}`).join(" and ")}),
  own as (delete from span_rollups where project_id = $1 and grain = 'day' and detail = ${NARROW_DETAIL.user}
    and user_id = $2)
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
