export { EXPOSURE_CHANNEL, announceExposureChange, listenForExposureChanges } from "./exposure-changes";
export {
  EXPOSURE_KINDS,
  exposedName,
  exposureInput,
  exposureWire,
  type ExposureInput,
  type ExposureKind,
  type ExposureWire,
} from "./exposure-input";
export { EXPOSURE_EVENT, getExposure, setExposure } from "./exposure-settings";
export { exposedNow, type ExposedTarget } from "./exposed-now";
export { exposedEntry, type ExposedEntry } from "./exposed-entry";
export { exposureRoutes } from "./routes";
