import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import { monitorAlerts } from "@/server/db/schema";
import { getMonitor } from "./monitor-store";
import { notificationsOfAlerts } from "./notification-store";
import type { AlertWithNotifications } from "./wire";

/**
 * A monitor's alerts, newest first, 100 a page (the core paging: `windowing.next` is the last
 * alert's id), each with its channel messages: an alert whose Slack post failed says so.
 */
export async function listAlerts(
  app: AppContext,
  projectId: string,
  monitorId: string,
  windowing: Windowing = {},
): Promise<Page<AlertWithNotifications>> {
  await getMonitor(app, projectId, monitorId);
  const w = windowClause(monitorAlerts, windowing);
  const rows = await app.db
    .select()
    .from(monitorAlerts)
    .where(and(eq(monitorAlerts.projectId, projectId), eq(monitorAlerts.monitorId, monitorId), ...w.conditions))
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  const page = toPage(rows, w.limit);
  const messages = await notificationsOfAlerts(
    app,
    projectId,
    page.items.map((a) => a.id),
  );
  return { ...page, items: page.items.map((a) => ({ ...a, notifications: messages.get(a.id) ?? [] })) };
}

/**
 * One alert of a monitor: `alertId`, or the monitor's latest firing when absent (404 when the
 * monitor never fired, or the alert is another monitor's). Its window is what the alert read.
 */
export async function getAlert(
  app: AppContext,
  projectId: string,
  monitorId: string,
  alertId?: string,
): Promise<typeof monitorAlerts.$inferSelect> {
  await getMonitor(app, projectId, monitorId);
  const [row] = await app.db
    .select()
    .from(monitorAlerts)
    .where(
      and(
        eq(monitorAlerts.projectId, projectId),
        eq(monitorAlerts.monitorId, monitorId),
        alertId ? eq(monitorAlerts.id, alertId) : eq(monitorAlerts.kind, "fired"),
      ),
    )
    .orderBy(desc(monitorAlerts.evaluatedAt))
    .limit(1);
  if (!row)
    throw new NotFoundError(
      alertId
        ? `alert ${alertId} is not an alert of monitor ${monitorId}`
        : `monitor ${monitorId} has never fired; name an alert_id or use a traces evidence with a window`,
      "alert_not_found",
    );
  return row;
}
