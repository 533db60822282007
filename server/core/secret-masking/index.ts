export { MASKED_SECRET, maskSecretValues, maskSecretValuesDeep, REDACTED_SECRET } from "./secret-values";
export { REDACTED, redactSecrets, rememberSecret } from "./known-secrets";
export { withoutSecrets } from "./without-secrets";
