import { z } from "zod";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import { referenceStatusCode, referenceStatusFilter } from "@/server/core/reference-status";
import { windowingSchema } from "@/server/core/windowing";
import { getAutomation, type AutomationRow } from "../automation-store";
import { queryFirings, type FiringStatus } from "../firing-store";
import { firingKeyOfEventId } from "../schedule-pass";
import { firingToCompat } from "./wire";

/**
 * The reference implementation's delivery query over our firings: by status code, trigger or
 * event id, newest first, paged only when `windowing` is sent.
 */
export const deliveryQuery = z.strictObject({
  delivery: z
    .strictObject({
      status: referenceStatusFilter.nullish(),
      schedule_id: z.string().uuid().nullish(),
      subscription_id: z.string().uuid().nullish(),
      automation_id: z.string().uuid().nullish(),
      event_id: z.string().nullish(),
    })
    .nullish(),
  windowing: windowingSchema.nullish(),
});

/** Our firings' statuses by the reference's codes; a code no firing of ours carries (500) matches none. */
const STATUSES_OF_CODE: Record<number, FiringStatus[]> = {
  102: ["pending", "queued"],
  200: ["captured"],
  202: ["started"],
  409: ["skipped"],
  400: ["failed"],
};

const NO_DELIVERIES = { count: 0, deliveries: [] };

/** Without windowing the reference answers every match; this many at most, past which a page is asked for. */
const UNWINDOWED_LIMIT = 10_000;

/** A status code as the reference implementation writes it (`"202"`) or as a number; anything else is refused. */
function statusCodeOf(code: string | number): number {
  const n = referenceStatusCode(code);
  if (!(n >= 100 && n <= 599))
    throw new BadRequestError(
      `delivery.status.code ${JSON.stringify(code)} is not an HTTP status code`,
      "unknown_status_code",
    );
  return n;
}

export async function queryCompatFirings(app: AppContext, projectId: string, query: z.infer<typeof deliveryQuery>) {
  const filter = query.delivery ?? {};
  const named = {
    automation_id: filter.automation_id,
    schedule_id: filter.schedule_id,
    subscription_id: filter.subscription_id,
  };
  const byEventId = filter.event_id ? firingKeyOfEventId(filter.event_id) : undefined;
  const automationIds = new Set(
    [filter.automation_id, filter.schedule_id, filter.subscription_id, byEventId?.automationId].filter(
      (id): id is string => typeof id === "string",
    ),
  );
  // Two different automations named: no delivery belongs to both.
  if (automationIds.size > 1) return NO_DELIVERIES;
  const code = filter.status?.code == null ? undefined : statusCodeOf(filter.status.code);
  const statuses = code === undefined ? undefined : (STATUSES_OF_CODE[code] ?? []);
  if (statuses?.length === 0) return NO_DELIVERIES;
  const windowing = query.windowing ?? { limit: UNWINDOWED_LIMIT };
  const page = await queryFirings(
    app.db,
    projectId,
    { automationId: [...automationIds][0], eventKey: byEventId?.eventKey, statuses },
    windowing,
  );
  if (!query.windowing && page.next)
    throw new BadRequestError(
      `More than ${UNWINDOWED_LIMIT} deliveries match: send windowing ({limit, next}) to page through them`,
      "too_many_results",
    );
  const automations = await automationsOf(
    app,
    projectId,
    page.items.map((r) => r.automationId),
  );
  // A schedule's id asked for as a subscription_id (or the reverse) matches nothing: a delivery
  // names its automation by the field whose route serves it.
  const deliveries = page.items
    .map((row) => firingToCompat(row, automations.get(row.automationId)!))
    .filter((d) => Object.entries(named).every(([field, id]) => !id || d[field as keyof typeof named] === id));
  return {
    count: deliveries.length,
    deliveries,
    ...(query.windowing && page.next ? { windowing: { next: page.next } } : {}),
  };
}

async function automationsOf(app: AppContext, projectId: string, ids: string[]) {
  const rows = new Map<string, AutomationRow>();
  for (const id of new Set(ids)) rows.set(id, await getAutomation(app.db, projectId, id));
  return rows;
}
