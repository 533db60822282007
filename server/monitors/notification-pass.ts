import { and, eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { redactSecrets } from "@/server/core/secret-masking";
import { rawQuery } from "@/server/db";
import { monitorNotifications } from "@/server/db/schema";
import { findEgressRefusal } from "@/server/egress";
import { nextAttemptAt, webhookFetch, WEBHOOK_USER_AGENT } from "@/server/webhooks";
import type { StoredChannel } from "./monitor-store";

/**
 * The webhooks' retry schedule, with its jitter (`nextAttemptAt`): `[i]` is the wait before
 * attempt i + 1; past the last one the message is failed.
 */
export const NOTIFICATION_SCHEDULE_MS = [0, 30_000, 120_000, 600_000, 1_800_000];
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
 * 2xx sent; an egress refusal failed at once; anything else retried on NOTIFICATION_SCHEDULE_MS,
 * then failed. Every outcome is the message's delivery record (status, attempts, answer, error,
 * when tried), which the alert history shows per channel. Returns how many it sent or gave up.
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
  const startedAt = app.now();
  let status: number | undefined;
  let error: string | undefined;
  let refused = false;
  let secret = "";
  try {
    if (!channel) throw new Error("the monitor no longer has this channel");
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
    if (status < 200 || status >= 300) error = text ? `HTTP ${status}: ${text.slice(0, EXCERPT)}` : `HTTP ${status}`;
  } catch (e) {
    const refusal = findEgressRefusal(e);
    refused = !!refusal;
    error = refusal ? `egress refused: ${refusal.reason}` : describeError(e);
  }
  const done = !error;
  const now = app.now();
  const retryAt = done || refused || !channel ? undefined : nextAttemptAt(NOTIFICATION_SCHEDULE_MS, n.attempts, now);
  await app.db
    .update(monitorNotifications)
    .set({
      status: done ? "sent" : retryAt ? "pending" : "failed",
      responseStatus: status ?? null,
      lastError: error ? redactSecrets(error, [secret]) : null,
      lastAttemptAt: startedAt,
      sentAt: done ? now : null,
      leaseUntil: null,
      ...(retryAt ? { nextAttemptAt: retryAt } : {}),
    })
    .where(and(eq(monitorNotifications.id, n.id), eq(monitorNotifications.leaseUntil, lease)));
}

/** "fetch failed" says nothing: the network cause (refused, reset, unknown host) does. */
function describeError(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const message = cause?.message || (e as Error).message || String(e);
  return cause?.code && !message.includes(cause.code) ? `${cause.code}: ${message}` : message;
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
