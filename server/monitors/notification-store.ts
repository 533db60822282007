import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import { monitorNotifications } from "@/server/db/schema";
import { getMonitor } from "./monitor-store";

export type NotificationRow = typeof monitorNotifications.$inferSelect;
export const NOTIFICATION_STATUSES = ["pending", "sent", "failed"] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** The channel messages of these alerts, by alert id, in channel order. */
export async function notificationsOfAlerts(
  app: AppContext,
  projectId: string,
  alertIds: string[],
): Promise<Map<string, NotificationRow[]>> {
  const byAlert = new Map<string, NotificationRow[]>();
  if (alertIds.length === 0) return byAlert;
  const rows = await app.db
    .select()
    .from(monitorNotifications)
    .where(and(eq(monitorNotifications.projectId, projectId), inArray(monitorNotifications.alertId, alertIds)))
    .orderBy(monitorNotifications.channel);
  for (const row of rows) byAlert.set(row.alertId, [...(byAlert.get(row.alertId) ?? []), row]);
  return byAlert;
}

/** A monitor's channel messages, newest first, 100 a page, optionally of one status. */
export async function listNotifications(
  app: AppContext,
  projectId: string,
  monitorId: string,
  windowing: Windowing = {},
  status?: NotificationStatus,
): Promise<Page<NotificationRow>> {
  await getMonitor(app, projectId, monitorId);
  const n = monitorNotifications;
  const w = windowClause(n, windowing);
  const rows = await app.db
    .select()
    .from(n)
    .where(
      and(
        eq(n.projectId, projectId),
        eq(n.monitorId, monitorId),
        status ? eq(n.status, status) : undefined,
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(rows, w.limit);
}
