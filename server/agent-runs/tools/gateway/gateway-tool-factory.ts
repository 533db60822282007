import { jsonSchema, tool, type JSONSchema7 } from "ai";
import { AppError, BadRequestError } from "@/server/core/errors";
import { capOutput } from "../cap-result";
import type { ToolFactory } from "../tool-types";
import { GATEWAY_SETUP, gatewayProviders } from "./gateway-providers";

/** OpenAI's rule for function names, the strictest of the providers. */
const toolName = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);

/**
 * `gateway` entries: one action of an integrations gateway, run as the entry's connected account.
 * The provider must be configured in this deployment, and it must know the action; either
 * failing refuses the run before it starts, naming the tool (and the variable to set).
 */
export const gatewayToolFactory: ToolFactory = async (entry, context) => {
  if (entry.type !== "gateway") throw new Error(`gatewayToolFactory got a ${entry.type} entry`);
  const action = { integration: entry.integration, action: entry.action, connection: entry.connection };
  const label = entry.name ?? `${entry.integration}/${entry.action}`;
  const scope = context.run;
  if (!scope)
    throw new BadRequestError(
      `tools: gateway tool "${label}" needs a run scope, and this run has none`,
      "unsupported_tool",
    );
  const provider = gatewayProviders(scope.app.config).get(entry.provider);
  if (!provider) {
    const setup = GATEWAY_SETUP[entry.provider];
    throw new BadRequestError(
      setup
        ? `tools: gateway tool "${label}" needs the ${entry.provider} gateway, which this deployment has not configured; set ${setup}`
        : `tools: gateway tool "${label}" names provider "${entry.provider}", which this service does not have; built-in: ${Object.keys(GATEWAY_SETUP).join(", ")}`,
      "gateway_not_configured",
    );
  }
  let spec;
  try {
    spec = await provider.describe(action);
  } catch (error) {
    if (error instanceof AppError)
      throw new AppError(error.status, error.code, `tools: gateway tool "${label}": ${error.message}`);
    throw error;
  }
  const maxBytes = context.resultMaxBytes ?? 64 * 1024;
  const run = async (input: unknown, signal?: AbortSignal): Promise<unknown> => {
    return capOutput(await provider.execute(action, spec, input, signal), maxBytes);
  };
  return {
    name: toolName(entry.name ?? spec.id.toLowerCase()),
    kind: "server",
    run,
    render: entry.render ?? undefined,
    tool: tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.inputSchema as JSONSchema7),
      execute: (input, { abortSignal }) => run(input, abortSignal),
    }),
  };
};
