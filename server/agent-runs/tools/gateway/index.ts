export { ComposioProvider, composioSlug } from "./composio-provider";
export type { GatewayAction, GatewayActionSpec, GatewayProvider } from "./gateway-provider";
export { GATEWAY_SETUP, gatewayProviders } from "./gateway-providers";
export { gatewayToolFactory } from "./gateway-tool-factory";
