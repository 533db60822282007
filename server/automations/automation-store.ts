import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "@/server/audit";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import { containsText, type Executor } from "@/server/db";
import { automationDeliveries, automations } from "@/server/db/schema";
import { SCHEDULE_EVENT_TYPE, type AutomationInput, type SignatureScheme } from "./automation-input";
import { checkAction, checkInput, checkTarget } from "./automation-target";
import { checkCronSchedule, nextFireTime } from "@/server/core/cron/cron-schedule";

export type AutomationRow = typeof automations.$inferSelect;

/**
 * A test subscription (input `test`, the reference implementation's `is_test`, kept in its
 * target): its references unchecked, each firing captured with what a run would be given, none run.
 */
export const isTestAutomation = (row: Pick<AutomationRow, "target">) => row.target.test === true;

/** A signing secret in the form the scheme's senders expect (`whsec_` + base64 for Standard Webhooks). */
export function generateSigningSecret(scheme: SignatureScheme): string {
  const bytes = randomBytes(24);
  return scheme === "github" ? bytes.toString("hex") : `whsec_${bytes.toString("base64")}`;
}

function checkSecret(scheme: SignatureScheme, secret: string): void {
  if (scheme !== "standard_webhooks") return;
  const body = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, "base64").length < 16)
    throw new BadRequestError(
      "secret: a Standard Webhooks secret is whsec_ followed by at least 16 bytes in base64",
      "invalid_secret",
      [{ path: "secret", message: "whsec_ followed by base64" }],
    );
}

/**
 * The columns an input sets, checked: the cron and zone parse and fire, the references name a
 * runnable agent or prompt application now, with the input it takes (resolved again at every
 * firing); a test subscription's references are not checked (it runs nothing).
 */
async function columnsOf(app: AppContext, principal: Principal, input: AutomationInput) {
  const now = app.now();
  if (input.action) await checkAction(app, principal, input);
  else if (input.test) checkInput(input.input);
  else await checkTarget(app, principal, input.references, input.input);
  const common = {
    kind: input.kind,
    name: input.name,
    description: input.description ?? null,
    tags: input.tags ?? null,
    meta: input.meta ?? null,
    target: input.action
      ? { references: {}, action: input.action }
      : { references: input.references, ...(input.test ? { test: true } : {}) },
    input: input.input,
    isActive: input.is_active,
    updatedAt: now,
  };
  if (input.kind === "schedule") {
    const schedule = { cron: input.cron.trim(), timezone: input.timezone };
    checkCronSchedule(schedule, now);
    return {
      ...common,
      ...schedule,
      overlapPolicy: input.overlap_policy,
      catchUpSeconds: input.catch_up_seconds,
      nextFireAt: nextFireTime(schedule, now),
      // A schedule's event key rides in event_types; only kind 'event' rows are matched to events.
      eventTypes: [input.event_key],
    };
  }
  if (input.kind === "event") return { ...common, eventTypes: input.event_types, filter: input.filter ?? null };
  if (input.secret) checkSecret(input.signature_scheme, input.secret);
  return { ...common, signatureScheme: input.signature_scheme, filter: input.filter ?? null };
}

/** Creates an automation; an inbound one comes back with its secret in plain text, the only time it is shown. */
export async function createAutomation(
  app: AppContext,
  principal: Principal,
  input: AutomationInput,
): Promise<{ row: AutomationRow; secret?: string }> {
  const columns = await columnsOf(app, principal, input);
  const secret = input.kind === "inbound" ? (input.secret ?? generateSigningSecret(input.signature_scheme)) : undefined;
  const [row] = await app.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(automations)
      .values({
        id: newId(),
        projectId: principal.projectId,
        ...columns,
        // The events' clock: an event's created_at is its writer's system time.
        eventsSince: input.kind === "event" ? new Date() : null,
        sealedSecret: secret ? app.secrets.seal(secret) : null,
        createdBy: principal.userId,
        createdAt: app.now(),
      })
      .returning();
    await audit(tx, "automation.created", undefined, inserted[0], app.now());
    return inserted;
  });
  return { row, secret };
}

/** What the audit log keeps of an automation: what fires it and what it runs, never its secret. */
const auditView = (a: AutomationRow) => ({
  name: a.name,
  kind: a.kind,
  is_active: a.isActive,
  target: a.target,
  ...(a.kind === "schedule" ? { cron: a.cron, timezone: a.timezone } : {}),
  ...(a.kind === "event" ? { event_types: a.eventTypes } : {}),
});

function audit(
  tx: Executor,
  action: string,
  before: AutomationRow | undefined,
  after: AutomationRow | undefined,
  at: Date,
) {
  const row = (after ?? before)!;
  return recordAudit(tx, {
    projectId: row.projectId,
    action,
    targetType: "automation",
    targetId: row.id,
    before: before && auditView(before),
    after: after && auditView(after),
    at,
  });
}

/**
 * Replaces an automation (the kind cannot change). A schedule's next fire time is planned again
 * from now; an inbound trigger keeps its secret unless a new one is given. A test subscription
 * saved without `test` is a live one again, its references checked.
 */
export async function replaceAutomation(
  app: AppContext,
  principal: Principal,
  id: string,
  input: AutomationInput,
): Promise<{ row: AutomationRow; secret?: string }> {
  const current = await getLiveAutomation(app.db, principal.projectId, id);
  if (current.kind !== input.kind)
    throw new BadRequestError(
      `automation ${id} is a ${current.kind}; its kind cannot change to ${input.kind} (create a new one)`,
      "kind_immutable",
    );
  const columns = await columnsOf(app, principal, input);
  const secret = input.kind === "inbound" ? input.secret : undefined;
  const row = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(automations)
      .set({ ...columns, ...(secret ? { sealedSecret: app.secrets.seal(secret) } : {}) })
      .where(and(eq(automations.id, id), eq(automations.projectId, principal.projectId)))
      .returning();
    await audit(tx, "automation.updated", current, updated, app.now());
    return updated;
  });
  return { row, secret };
}

/** A row of the project, deleted ones included (the reference implementation's GET returns them). */
export async function getAutomation(db: Executor, projectId: string, id: string): Promise<AutomationRow> {
  const [row] = await db
    .select()
    .from(automations)
    .where(and(eq(automations.id, id), eq(automations.projectId, projectId)));
  if (!row) throw new NotFoundError(`Automation ${id} not found`, "automation_not_found");
  return row;
}

export async function getLiveAutomation(db: Executor, projectId: string, id: string): Promise<AutomationRow> {
  const row = await getAutomation(db, projectId, id);
  if (row.deletedAt) throw new NotFoundError(`Automation ${id} not found (it was deleted)`, "automation_not_found");
  return row;
}

/** A project's live automations, newest first: all of them, or of one kind, or named like `name`. */
export async function listAutomations(
  db: Executor,
  projectId: string,
  filter: { kind?: AutomationRow["kind"]; name?: string } = {},
): Promise<AutomationRow[]> {
  return (await queryAutomations(db, projectId, filter)).items;
}

/**
 * The reference's trigger query: name (case-insensitive substring) and event key (a schedule's
 * `event_key`, a subscription's first event type: the one its compat `data.event_key` shows),
 * newest first; a page of `windowing` only when one is sent, all of them otherwise. `follows`
 * matches any of a row's event types (a subscription made in our own API may follow several).
 */
export async function queryAutomations(
  db: Executor,
  projectId: string,
  query: {
    kind?: AutomationRow["kind"];
    name?: string;
    eventKey?: string;
    follows?: string;
    windowing?: Windowing;
  },
): Promise<Page<AutomationRow>> {
  const window = query.windowing ? windowClause(automations, query.windowing) : undefined;
  const matching = db
    .select()
    .from(automations)
    .where(
      and(
        eq(automations.projectId, projectId),
        isNull(automations.deletedAt),
        query.kind ? eq(automations.kind, query.kind) : undefined,
        query.name ? containsText(automations.name, query.name) : undefined,
        query.eventKey
          ? sql`coalesce(${automations.eventTypes} ->> 0, ${SCHEDULE_EVENT_TYPE}) = ${query.eventKey}`
          : undefined,
        query.follows ? sql`${automations.eventTypes} @> ${JSON.stringify([query.follows])}::jsonb` : undefined,
        ...(window?.conditions ?? []),
      ),
    )
    .orderBy(window?.orderBy ?? desc(automations.id))
    .$dynamic();
  if (!window) return { items: await matching };
  return toPage(await matching.limit(window.limit + 1), window.limit);
}

/**
 * Pause (false) or resume (true). Resuming a schedule plans its next fire time from now: the
 * times that passed while it was paused are not owed.
 */
export async function setAutomationActive(
  app: AppContext,
  projectId: string,
  id: string,
  active: boolean,
): Promise<AutomationRow> {
  const current = await getLiveAutomation(app.db, projectId, id);
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(automations)
      .set({
        isActive: active,
        updatedAt: now,
        ...(active && current.kind === "schedule"
          ? { nextFireAt: nextFireTime({ cron: current.cron!, timezone: current.timezone! }, now) }
          : {}),
        // Events that came while it was paused are not owed.
        ...(active && current.kind === "event" && !current.isActive
          ? { eventsSince: new Date(), eventCursorAt: null }
          : {}),
      })
      .where(and(eq(automations.id, id), eq(automations.projectId, projectId)))
      .returning();
    await audit(tx, active ? "automation.resumed" : "automation.paused", current, row, now);
    return row;
  });
}

/**
 * Soft delete: the row stays readable by id (with its deliveries), its flags as they were (the
 * reference implementation's lifecycle test reads them back unchanged), and fires no more: every
 * pass and the dispatcher pass over deleted rows.
 */
export async function deleteAutomation(app: AppContext, principal: Principal, id: string): Promise<void> {
  const current = await getLiveAutomation(app.db, principal.projectId, id);
  await app.db.transaction(async (tx) => {
    await tx
      .update(automations)
      .set({ deletedAt: app.now(), deletedBy: principal.userId })
      .where(and(eq(automations.id, id), eq(automations.projectId, principal.projectId)));
    await audit(tx, "automation.deleted", current, undefined, app.now());
  });
}

/**
 * Deletes an automation and its firings for good, in one transaction: the end of a test
 * subscription made by `POST /api/triggers/subscriptions/test`, which leaves nothing behind.
 */
export async function purgeAutomation(app: AppContext, projectId: string, id: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    // The row first, as the event pass takes it: a pass holding it (its insert waiting on a firing
    // deleted here, an event seen again) is waited for instead of deadlocking; later ones skip it.
    await tx
      .select({ id: automations.id })
      .from(automations)
      .where(and(eq(automations.id, id), eq(automations.projectId, projectId)))
      .for("update");
    await tx
      .delete(automationDeliveries)
      .where(and(eq(automationDeliveries.automationId, id), eq(automationDeliveries.projectId, projectId)));
    const [gone] = await tx
      .delete(automations)
      .where(and(eq(automations.id, id), eq(automations.projectId, projectId)))
      .returning();
    if (gone) await audit(tx, "automation.purged", gone, undefined, app.now());
  });
}
