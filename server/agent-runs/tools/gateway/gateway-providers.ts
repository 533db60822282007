import type { Config } from "@/server/core/config";
import { ComposioProvider } from "./composio-provider";
import type { GatewayProvider } from "./gateway-provider";

/** What an operator sets to enable each built-in provider (named in the refusal when it is unset). */
export const GATEWAY_SETUP: Record<string, string> = {
  composio: "COMPOSIO_API_KEY (and COMPOSIO_BASE_URL for a self-hosted or proxied Composio)",
};

const cache = new WeakMap<Config["gateways"], Map<string, GatewayProvider>>();

/** The gateway providers this deployment has configured, by id. */
export function gatewayProviders(config: Pick<Config, "gateways">): Map<string, GatewayProvider> {
  let providers = cache.get(config.gateways);
  if (!providers) {
    providers = new Map();
    if (config.gateways.composio) providers.set("composio", new ComposioProvider(config.gateways.composio));
    cache.set(config.gateways, providers);
  }
  return providers;
}
