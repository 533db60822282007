import { and, desc, eq, lt, sql } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Page } from "@/server/core/windowing";
import { toPage } from "@/server/core/windowing";
import { containsText, type Database } from "@/server/db";
import { webhookSubscriptions } from "@/server/db/schema";
import { urlRefusal } from "@/server/egress";
import { recordAudit } from "@/server/audit";
import type { AppContext } from "@/server/core/app-context";
import { generateWebhookSecret } from "./signature";
import type { SubscriptionInput } from "./subscription-input";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

export interface Scope {
  projectId: string;
  userId: string;
}

/** Checks what zod cannot: the URL against the egress rules, the secret the mode needs. */
export function checkSubscriptionInput(
  app: AppContext,
  input: SubscriptionInput,
  secret: string | undefined,
  requireSecret = true,
): void {
  const refusal = urlRefusal(input.data.url, { allowlist: app.config.egressAllowlist, httpsOnly: true });
  if (refusal) {
    throw new BadRequestError(`subscription.data.url ${refusal}`, "invalid_webhook_url", [
      { path: "subscription.data.url", message: refusal },
    ]);
  }
  if (input.data.auth_mode === "authorization" && secret) checkBearerToken(secret);
  if (requireSecret && input.data.auth_mode === "authorization" && !secret) {
    throw new BadRequestError(
      "subscription.secret is required when auth_mode is authorization (it is sent as the bearer token)",
      "secret_required",
      [{ path: "subscription.secret", message: "required when auth_mode is authorization" }],
    );
  }
}

/**
 * Authorization mode sends `Authorization: Bearer <secret>`. The reference implementation sends the
 * secret verbatim and has its users write `Bearer ` into it: such a secret (any whitespace) would
 * go out as `Bearer Bearer ...`, so it is refused, saying what to send instead.
 */
function checkBearerToken(secret: string, path = "subscription.secret"): void {
  if (/\s/.test(secret)) {
    throw new BadRequestError(
      `${path} is sent as "Authorization: Bearer <secret>": give the token alone, without "Bearer " ` +
        "or any whitespace",
      "bad_request",
      [{ path, message: "must be the bearer token alone (no whitespace)" }],
    );
  }
}

function columnsFrom(input: SubscriptionInput) {
  return {
    name: input.name,
    description: input.description ?? null,
    tags: input.tags ?? null,
    meta: input.meta ?? null,
    url: new URL(input.data.url).toString(),
    eventTypes: input.data.event_types === undefined ? null : input.data.event_types,
    headers: input.data.headers ?? null,
    authMode: input.data.auth_mode,
    payloadFields: input.data.payload_fields ?? null,
  };
}

/** Creates a subscription; returns it with its secret in plain text, the only time it is shown. */
export async function createSubscription(
  app: AppContext,
  scope: Scope,
  input: SubscriptionInput,
  givenSecret?: string,
) {
  const secret = givenSecret ?? input.secret;
  checkSubscriptionInput(app, input, secret);
  const plain = secret ?? generateWebhookSecret();
  const now = new Date();
  const row = await app.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookSubscriptions)
      .values({
        id: newId(),
        projectId: scope.projectId,
        ...columnsFrom(input),
        sealedSecret: app.secrets.seal(plain),
        isActive: input.flags?.is_active ?? true,
        createdAt: now,
        updatedAt: now,
        createdBy: scope.userId,
      })
      .returning();
    await recordAudit(tx, { ...auditTarget(inserted), action: "webhook.created", after: auditView(inserted) });
    return inserted;
  });
  return { row, secret: plain };
}

export async function getSubscription(db: Database, projectId: string, id: string): Promise<SubscriptionRow> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.projectId, projectId), eq(webhookSubscriptions.id, id)));
  if (!row) throw new NotFoundError(`Webhook subscription ${id} not found`, "subscription_not_found");
  return row;
}

/** Full replace. The secret changes only when one is given; the active flag only when `flags` is. */
export async function replaceSubscription(
  app: AppContext,
  projectId: string,
  id: string,
  input: SubscriptionInput,
  givenSecret?: string,
) {
  if (input.id && input.id !== id) {
    throw new BadRequestError(`subscription.id ${input.id} differs from the id in the path (${id})`, "id_mismatch", [
      { path: "subscription.id", message: "must match the path" },
    ]);
  }
  const secret = givenSecret ?? input.secret;
  checkSubscriptionInput(app, input, secret, false);
  const current = await getSubscription(app.db, projectId, id);
  if (input.data.auth_mode === "authorization" && current.authMode !== "authorization" && !secret) {
    throw new BadRequestError(
      "subscription.secret is required when switching auth_mode to authorization",
      "secret_required",
      [{ path: "subscription.secret", message: "required when switching to authorization" }],
    );
  }
  const activate = input.flags?.is_active;
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookSubscriptions)
      .set({
        ...columnsFrom(input),
        ...(secret ? { sealedSecret: app.secrets.seal(secret) } : {}),
        ...(activate === undefined ? {} : { isActive: activate, stoppedReason: null, failingSince: null }),
        updatedAt: new Date(),
      })
      .where(and(eq(webhookSubscriptions.projectId, projectId), eq(webhookSubscriptions.id, id)))
      .returning();
    if (!row) throw new NotFoundError(`Webhook subscription ${id} not found`, "subscription_not_found");
    await recordAudit(tx, {
      ...auditTarget(row),
      action: "webhook.updated",
      before: auditView(current),
      after: { ...auditView(row), secret_changed: Boolean(secret) },
    });
    return row;
  });
}

export async function deleteSubscription(db: Database, projectId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.projectId, projectId), eq(webhookSubscriptions.id, id)))
      .returning();
    if (deleted.length === 0) throw new NotFoundError(`Webhook subscription ${id} not found`, "subscription_not_found");
    await recordAudit(tx, { ...auditTarget(deleted[0]), action: "webhook.deleted", before: auditView(deleted[0]) });
  });
}

/** Start clears what the service recorded when it stopped the subscription. */
export async function setSubscriptionActive(
  db: Database,
  projectId: string,
  id: string,
  active: boolean,
): Promise<SubscriptionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookSubscriptions)
      .set({ isActive: active, stoppedReason: null, failingSince: null, updatedAt: new Date() })
      .where(and(eq(webhookSubscriptions.projectId, projectId), eq(webhookSubscriptions.id, id)))
      .returning();
    if (!row) throw new NotFoundError(`Webhook subscription ${id} not found`, "subscription_not_found");
    await recordAudit(tx, {
      ...auditTarget(row),
      action: active ? "webhook.started" : "webhook.stopped",
      after: auditView(row),
    });
    return row;
  });
}

export async function rotateSubscriptionSecret(app: AppContext, projectId: string, id: string, givenSecret?: string) {
  const secret = givenSecret ?? generateWebhookSecret();
  const row = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookSubscriptions)
      .set({ sealedSecret: app.secrets.seal(secret), updatedAt: new Date() })
      .where(and(eq(webhookSubscriptions.projectId, projectId), eq(webhookSubscriptions.id, id)))
      .returning();
    if (!updated) throw new NotFoundError(`Webhook subscription ${id} not found`, "subscription_not_found");
    if (updated.authMode === "authorization") checkBearerToken(secret, "secret");
    await recordAudit(tx, { ...auditTarget(updated), action: "webhook.secret_rotated" });
    return updated;
  });
  return { row, secret };
}

function auditTarget(row: SubscriptionRow) {
  return { projectId: row.projectId, targetType: "webhook", targetId: row.id };
}

/** What the audit log keeps of a subscription: header names but not their values, never the secret. */
function auditView(row: SubscriptionRow) {
  return {
    name: row.name,
    description: row.description,
    url: row.url,
    event_types: row.eventTypes,
    header_names: Object.keys(row.headers ?? {}),
    auth_mode: row.authMode,
    is_active: row.isActive,
  };
}

export interface SubscriptionFilter {
  name?: string;
  description?: string;
  tags?: Record<string, unknown>;
}

/** Newest first; `name` and `description` match partially (case-insensitive), `tags` by containment. */
export async function querySubscriptions(
  db: Database,
  projectId: string,
  filter: SubscriptionFilter = {},
  windowing: { limit?: number; next?: string } = {},
): Promise<Page<SubscriptionRow>> {
  const limit = windowing.limit ?? 100;
  const t = webhookSubscriptions;
  const rows = await db
    .select()
    .from(t)
    .where(
      and(
        eq(t.projectId, projectId),
        filter.name ? containsText(t.name, filter.name) : undefined,
        filter.description ? containsText(t.description, filter.description) : undefined,
        filter.tags ? sql`${t.tags} @> ${JSON.stringify(filter.tags)}::jsonb` : undefined,
        windowing.next ? lt(t.id, windowing.next) : undefined,
      ),
    )
    .orderBy(desc(t.id))
    .limit(limit + 1);
  return toPage(rows, limit);
}
