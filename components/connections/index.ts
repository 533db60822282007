export { ConnectionsSection } from "./connections-section";
export { useConnectedProviders } from "./use-connected-providers";
