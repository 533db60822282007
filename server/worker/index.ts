export type { BackgroundWorker, RunningWorker } from "./background-worker";
export { listen } from "./listen";
export { startWakeLoop, type WakeLoop } from "./wake-loop";
export { wakeOnNotify, type NotifyWakes } from "./wake-on-notify";
export {
  CHANGE_LISTENER_APPLICATION,
  listenForChanges,
  type ChangeHandlers,
  type ChangeListener,
} from "./change-listener";
export { NotifiedCache, type NotifiedCacheOptions } from "./notified-cache";
