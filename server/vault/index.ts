export { secretInputSchema, type SecretData, type SecretInput } from "./secret-input";
export { connectionToWire, plainSecretToWire, secretToWire } from "./wire";
export { Vault, vaultOf, type VaultContext } from "./vault-store";
export {
  isCustomProvider,
  isModelConnection,
  secretValueOf,
  type CustomProviderData,
  type ModelConnection,
  type PlainSecret,
  type VaultSecret,
} from "./vault-secret";
export { vaultRoutes } from "./routes";
export { secretHeaders, type SecretHeader } from "./connection-headers";
