import { and, eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { redactSecrets } from "@/server/core/secret-masking";
import { rawQuery } from "@/server/db";
import { monitorNotifications } from "@/server/db/schema";
import { findEgressRefusal } from "@/server/egress";
import { webhookFetch, WEBHOOK_USER_AGENT } from "@/server/webhooks";
import type { StoredChannel } from "./monitor-store";

/** Waits after each failed attempt; past the last one the message is failed. */
export const NOTIFICATION_RETRY_MS = [30_000, 120_000, 600_000, 1_800_000];
const TIMEOUT_MS = 10_000;
const LEASE_MS = TIMEOUT_MS + 5_000;
const EXCERPT = 500;

interface Claimed {
  id: string;
  monitor_id: string;
  channel: number;
  kind: "slack" | "teams" | "github";
  payload: Record<string, unknown>;
  attempts: number;
  channels: StoredChannel[];
}

/**
 * Claims due channel messages under a lease (the request runs outside any transaction, as
 * webhook deliveries do), sends each, and records the outcome where the lease is still ours:
 * 2xx sent; an egress refusal failed at once; anything else retried on NOTIFICATION_RETRY_MS,
 * then failed. Returns how many it sent or gave up.
 */
export async function sendDueNotifications(app: AppContext, limit: number): Promise<number> {
  const now = app.now();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const claimed = await rawQuery<Claimed>(
    app.db,
    `with c as (
      update monitor_notifications n set lease_until = $2::timestamptz, attempts = n.attempts + 1
      where n.id in (select id from monitor_notifications where status = 'pending' and next_attempt_at <= $1::timestamptz
        and (lease_until is null or lease_until <= $1::timestamptz) order by next_attempt_at limit $3::int for update skip locked)
      returning n.id, n.monitor_id, n.channel, n.kind, n.payload, n.attempts)
    select c.*, m.channels from c join monitors m on m.id = c.monitor_id`,
    [now.toISOString(), leaseUntil.toISOString(), limit],
  );
  await Promise.all(claimed.map((n) => sendOne(app, n, leaseUntil)));
  return claimed.length;
}

async function sendOne(app: AppContext, n: Claimed, lease: Date): Promise<void> {
  const channel = n.channels[n.channel];
  let status: number | undefined;
  let error: string | undefined;
  let refused = false;
  let secret = "";
  try {
    secret = app.secrets.open(channel.sealed);
    const { url, headers } = requestOf(channel, secret);
    const response = await webhookFetch(app)(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": WEBHOOK_USER_AGENT, ...headers },
      body: JSON.stringify(n.payload),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    status = response.status;
    const text = await response.text().catch(() => "");
    if (status < 200 || status >= 300) error = `HTTP ${status}: ${text.slice(0, EXCERPT)}`;
  } catch (e) {
    refused = !!findEgressRefusal(e);
    error = (e as Error).message;
  }
  const done = !error;
  const retryIn = NOTIFICATION_RETRY_MS[n.attempts - 1];
  const failed = !done && (refused || retryIn === undefined);
  const now = app.now();
  await app.db
    .update(monitorNotifications)
    .set({
      status: done ? "sent" : failed ? "failed" : "pending",
      responseStatus: status ?? null,
      lastError: error ? redactSecrets(error, [secret]) : null,
      sentAt: done ? now : null,
      leaseUntil: null,
      ...(!done && !failed ? { nextAttemptAt: new Date(now.getTime() + retryIn!) } : {}),
    })
    .where(and(eq(monitorNotifications.id, n.id), eq(monitorNotifications.leaseUntil, lease)));
}

/** Where a channel's message goes and how it authenticates. */
function requestOf(channel: StoredChannel, secret: string): { url: string; headers: Record<string, string> } {
  if (channel.kind !== "github") return { url: secret, headers: {} };
  return {
    url: `${channel.api_url}/repos/${channel.repository}/dispatches`,
    headers: {
      Accept: "application/vnd.github+json",
      Authorization: `Bearer ${secret}`,
      "X-GitHub-Api-Version": "2022-11-28",
    },
  };
}

/** The messages of a monitor's alerts (for the history): status per channel. */
export async function notificationsOf(app: AppContext, projectId: string, monitorId: string) {
  return app.db
    .select()
    .from(monitorNotifications)
    .where(and(eq(monitorNotifications.projectId, projectId), eq(monitorNotifications.monitorId, monitorId)));
}
