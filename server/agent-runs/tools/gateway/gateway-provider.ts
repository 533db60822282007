/** The action a `gateway` entry exposes: which app, which action, as which connected account. */
export interface GatewayAction {
  integration: string;
  action: string;
  connection: string;
}

/** What the gateway says about an action: shown to the model as the tool's description and schema. */
export interface GatewayActionSpec {
  /** The gateway's own identifier of the action. */
  id: string;
  description: string;
  inputSchema: Record<string, unknown>;
  version?: string;
}

/**
 * An integrations gateway. `describe` runs before the run (an action the gateway does not know
 * refuses the run with a 400); `execute` runs one call and returns its result or throws a message
 * fit for the model. Implementations never put their credentials in a message.
 */
export interface GatewayProvider {
  id: string;
  describe(action: GatewayAction, signal?: AbortSignal): Promise<GatewayActionSpec>;
  execute(action: GatewayAction, spec: GatewayActionSpec, args: unknown, signal?: AbortSignal): Promise<unknown>;
}
