import { createSdkMcpServer, type McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import { asSchema } from "ai";
import { z } from "zod";
import type { HarnessRules } from "../../permissions";
import type { BuiltTools } from "../../tools/tool-types";

/** The reserved in-process MCP server the template's tools reach Claude Code through. */
export const AGENTA_TOOLS = "agenta-tools";
const PREFIX = `mcp__${AGENTA_TOOLS}__`;

/** `mcp__agenta-tools__lookup` -> `lookup`; undefined for any other tool name. */
export function serviceToolName(claudeName: string): string | undefined {
  return claudeName.startsWith(PREFIX) ? claudeName.slice(PREFIX.length) : undefined;
}

/**
 * The `harness.permissions` rules the registry's permission order applies to service tools:
 * Claude Code names them `mcp__agenta-tools__<name>`, the registry `<name>`, so a rule written
 * either way gates the same tool in both places.
 */
export function serviceToolRules(rules: HarnessRules): HarnessRules {
  const strip = (rule: string) => (rule.startsWith(PREFIX) ? rule.slice(PREFIX.length) : rule);
  return { allow: rules.allow.map(strip), ask: rules.ask.map(strip), deny: rules.deny.map(strip) };
}

export interface ToolCallResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError?: boolean;
}

export type CallServiceTool = (
  name: string,
  args: Record<string, unknown>,
  toolUseId: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<ToolCallResult>;

/**
 * The template's tools as an MCP server inside this process. Each tool keeps its JSON Schema
 * (converted to the zod shape the SDK's server wants) and its read-only hint; every call goes to
 * `call`, which runs the registry's tool under the run's permission policy, or holds a client
 * tool's call open for the caller.
 */
export async function agentaToolsServer(
  tools: BuiltTools,
  timeoutMs: number,
  call: CallServiceTool,
): Promise<McpSdkServerConfigWithInstance> {
  const definitions = await Promise.all(
    [...tools.byName.values()].map(async (registered) => ({
      name: registered.name,
      description: registered.tool.description ?? registered.name,
      inputSchema: zodOf(await asSchema(registered.tool.inputSchema).jsonSchema),
      annotations: { readOnlyHint: Boolean(registered.readOnly) },
      handler: (args: Record<string, unknown>, extra: unknown) =>
        call(registered.name, args, toolUseIdOf(extra), signalOf(extra)),
    })),
  );
  // A client tool's call stays open until the caller answers (at most the session's idle time).
  return createSdkMcpServer({
    name: AGENTA_TOOLS,
    version: "1.0.0",
    alwaysLoad: true,
    timeout: timeoutMs,
    tools: definitions,
  });
}

/** A schema zod cannot express still reaches the tool, whose own validation then applies. */
function zodOf(schema: unknown): z.ZodObject {
  try {
    const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (converted instanceof z.ZodObject) return converted;
  } catch {
    // fall through to an open object
  }
  return z.looseObject({});
}

function toolUseIdOf(extra: unknown): string | undefined {
  const meta = (extra as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const id = meta?.["claudecode/toolUseId"];
  return typeof id === "string" ? id : undefined;
}

function signalOf(extra: unknown): AbortSignal | undefined {
  const signal = (extra as { signal?: unknown } | undefined)?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}
