import { and, asc, desc, eq, inArray, isNull, like, lt, notLike, or, sql } from "drizzle-orm";
import { z } from "zod";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { referenceStatusCode, referenceStatusFilter } from "@/server/core/reference-status";
import { toPage, type Page } from "@/server/core/windowing";
import type { Database } from "@/server/db";
import { webhookAttempts, webhookDeliveries } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { leaseMs } from "./claim-due";
import { attemptDelivery } from "./deliver";
import { EGRESS_REFUSED } from "./send-attempt";
import { getSubscription } from "./subscriptions";
import type { AttemptRow, DeliveryRow } from "./wire";

const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/**
 * `status` is ours (`pending`, `succeeded`, `failed`) or the reference implementation's
 * `{code}` (its other status fields are taken and, as there, not filtered on). Nulls are absent.
 */
export const deliveryQuerySchema = z.strictObject({
  delivery: z
    .strictObject({
      status: z.union([z.enum(DELIVERY_STATUSES), referenceStatusFilter]).nullish(),
      subscription_id: z.string().uuid().nullish(),
      event_id: z.string().uuid().nullish(),
      event_type: z.string().max(200).nullish(),
    })
    .nullish(),
  include_archived: z.boolean().nullish().describe("The reference implementation's; nothing is archived here"),
  windowing: z
    .strictObject({ limit: z.number().int().min(1).max(1000).optional(), next: z.string().uuid().optional() })
    .nullish(),
});

type StatusQuery = NonNullable<z.infer<typeof deliveryQuerySchema>["delivery"]>["status"];

/** Our status as given; the reference implementation's `{code}` checked: `"0"` or an HTTP status, text or number. */
export function statusFilterOf(status: StatusQuery): Pick<DeliveryFilter, "status" | "referenceCode"> {
  if (status == null) return {};
  if (typeof status === "string") return { status };
  if (status.code == null) return {};
  const code = status.code;
  const n = referenceStatusCode(code);
  if (!(n === 0 || (n >= 100 && n <= 599)))
    throw new BadRequestError(
      `delivery.status.code ${JSON.stringify(code)} is not a delivery status code: an HTTP status ("200"), "0" ` +
        `(time-out or network error), or use delivery.status "pending", "succeeded" or "failed"`,
      "unknown_status_code",
    );
  return { referenceCode: n };
}

/**
 * The reference implementation's final record codes over our deliveries: an HTTP status is the
 * last answer of a delivery that is done (a delivery still being retried has no record there
 * yet); `0` a failure without an answer (time-out, network error); `400` also a URL the egress
 * guard refused (the reference implementation's "URL invalid").
 */
function referenceCodeCondition(code: number) {
  const d = webhookDeliveries;
  const noAnswer = and(eq(d.status, "failed"), isNull(d.lastStatusCode));
  if (code === 0) return and(noAnswer, notLike(d.lastError, `${EGRESS_REFUSED}%`));
  const answered = and(inArray(d.status, ["succeeded", "failed"]), eq(d.lastStatusCode, code));
  return code === 400 ? or(answered, and(noAnswer, like(d.lastError, `${EGRESS_REFUSED}%`))) : answered;
}

export interface DeliveryFilter {
  status?: "pending" | "succeeded" | "failed";
  /** The reference implementation's `status.code` (see referenceCodeCondition). */
  referenceCode?: number;
  subscriptionId?: string;
  eventId?: string;
  eventType?: string;
}

/** Newest first (ids follow their events' time), paged by the last id. */
export async function queryDeliveries(
  db: Database,
  projectId: string,
  filter: DeliveryFilter = {},
  windowing: { limit?: number; next?: string } = {},
): Promise<Page<DeliveryRow>> {
  const d = webhookDeliveries;
  const limit = windowing.limit ?? 100;
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.projectId, projectId),
        filter.status ? eq(d.status, filter.status) : undefined,
        filter.referenceCode === undefined ? undefined : referenceCodeCondition(filter.referenceCode),
        filter.subscriptionId ? eq(d.subscriptionId, filter.subscriptionId) : undefined,
        filter.eventId ? eq(d.eventId, filter.eventId) : undefined,
        filter.eventType ? eq(d.eventType, filter.eventType) : undefined,
        windowing.next ? lt(d.id, windowing.next) : undefined,
      ),
    )
    .orderBy(desc(d.id))
    .limit(limit + 1);
  return toPage(rows, limit);
}

export async function getDelivery(
  db: Database,
  projectId: string,
  id: string,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, id)));
  if (!delivery) throw new NotFoundError(`Webhook delivery ${id} not found`, "delivery_not_found");
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(asc(webhookAttempts.number));
  return { delivery, attempts };
}

/**
 * Sends a delivery again now, whatever its status: the same body, delivery id and idempotency
 * key, a new timestamp and signature. Its outcome becomes the delivery's status; a delivery a
 * worker is sending right now is a 409.
 */
export async function redeliver(app: AppContext, projectId: string, id: string) {
  const now = new Date();
  const d = webhookDeliveries;
  const [claimed] = await app.db
    .update(d)
    .set({
      leaseUntil: new Date(now.getTime() + leaseMs(app)),
      leaseToken: newId(),
      attempts: sql`${d.attempts} + 1`,
      updatedAt: now,
    })
    .where(and(eq(d.projectId, projectId), eq(d.id, id), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
    .returning();
  if (!claimed) {
    await getDelivery(app.db, projectId, id);
    throw new ConflictError(
      `Webhook delivery ${id} is being sent right now; try again when the attempt is recorded`,
      "delivery_in_flight",
    );
  }
  const subscription = await getSubscription(app.db, projectId, claimed.subscriptionId!);
  await attemptDelivery(app, claimed, subscription, "redeliver", "final");
  return getDelivery(app.db, projectId, id);
}
