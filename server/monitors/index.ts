export { monitorRoutes } from "./routes";
export { monitorWorker, monitorPass, MONITOR_BATCH } from "./worker";
export { checkDueMonitors, MONITOR_EVENT_TYPES } from "./check-pass";
export { sendDueNotifications, NOTIFICATION_RETRY_MS } from "./notification-pass";
export { monitorInputSchema, muteInputSchema, METRIC_NAMES, SCOPE_KINDS, type MonitorInput } from "./monitor-input";
export {
  createMonitor,
  deleteMonitor,
  getMonitor,
  listAlerts,
  listMonitors,
  muteMonitor,
  replaceMonitor,
} from "./monitor-store";
export { alertToWire, monitorToWire, type AlertWire, type MonitorWire } from "./wire";
export { firingSince, monitorStates, type MonitorFiring, type MonitorState } from "./monitor-states";
