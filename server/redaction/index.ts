export { BUILT_IN_KINDS, luhnValid, ibanValid, type BuiltInKind } from "./detectors";
export { Redactor, placeholder, type RedactionRules } from "./redactor";
export {
  getRedactionSettings,
  redactForStorage,
  redactionSettingsInput,
  redactorFor,
  setRedactionSettings,
  type RedactionSettingsInput,
} from "./redaction-settings";
export { redactionRoutes } from "./routes";
