export { monitorRoutes } from "./routes";
export { monitorWorker, monitorPass, MONITOR_BATCH } from "./worker";
export { checkDueMonitors, MONITOR_EVENT_TYPES } from "./check-pass";
export { sendDueNotifications, NOTIFICATION_SCHEDULE_MS } from "./notification-pass";
export { monitorInputSchema, muteInputSchema, METRIC_NAMES, SCOPE_KINDS, type MonitorInput } from "./monitor-input";
export { createMonitor, deleteMonitor, getMonitor, listMonitors, muteMonitor, replaceMonitor } from "./monitor-store";
export { getAlert, listAlerts } from "./alert-history";
export { listNotifications, NOTIFICATION_STATUSES } from "./notification-store";
export {
  alertToWire,
  monitorToWire,
  notificationToWire,
  type AlertWire,
  type MonitorWire,
  type NotificationWire,
} from "./wire";
export { firingSince, monitorStates, type MonitorFiring, type MonitorState } from "./monitor-states";
