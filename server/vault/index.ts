export { secretInputSchema, type SecretData, type SecretInput } from "./secret-input";
export { secretToWire } from "./secret-wire";
export { Vault, vaultOf, type VaultContext } from "./vault-store";
export { isCustomProvider, type CustomProviderData, type VaultSecret } from "./vault-secret";
export { vaultRoutes } from "./routes";
