export { ConnectionsSection } from "./connections-section";
export { SecretsSection } from "./secrets-section";
export { useConnectedProviders } from "./use-connected-providers";
