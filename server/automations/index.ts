export { automationRoutes } from "./routes";
export { triggerCompatRoutes } from "./compat/routes";
export { automationWorker, automationPass } from "./worker";
export { fireDueSchedules } from "./schedule-pass";
export { matchEvents } from "./event-pass";
export { dispatchFirings } from "./dispatch-pass";
export { fireTest } from "./test-firing";
export { receiveInbound } from "./inbound/receive-inbound";
export {
  AUTOMATION_KINDS,
  automationInputSchema,
  cronPreviewSchema,
  type AutomationInput,
  type AutomationKind,
} from "./automation-input";
export { createAutomation, deleteAutomation, replaceAutomation, setAutomationActive } from "./automation-store";
export { automationView, automationViews, firingViews, type FiringView } from "./automation-views";
export { queryFirings } from "./firing-store";
export { automationToWire, cronPreview, firingToWire, type AutomationWire, type FiringWire } from "./wire";
export { clearFiringsOf } from "./erase-firings";
