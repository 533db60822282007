import { jsonSchema, tool, type JSONSchema7 } from "ai";
import type { Tool as McpToolDescriptor } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { MASKED_SECRET, maskSecretValues } from "@/server/core/secret-masking";
import type { RegisteredTool } from "../tools/tool-types";
import { connectMcpServer, type ConnectedMcpServer, type McpConnectOptions } from "./connect-mcp-server";
import { mcpFailureReason } from "./mcp-failure-reason";
import { mcpToolName } from "./mcp-tool-name";
import { mcpToolResultText } from "./mcp-tool-result";

export interface McpToolsOptions extends Omit<McpConnectOptions, "timeoutMs"> {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  resultMaxBytes: number;
}

/** The tools of a run's MCP servers, and the clients behind them. */
export interface McpToolset {
  tools: RegisteredTool[];
  /** Resolved secret header values: masked in results, errors and traces. */
  secrets: string[];
  /** Closes every client (at the end of the run). */
  close(): Promise<void>;
}

/** How the stream names an MCP tool's origin (`render` of its tool_call). */
export interface McpRender {
  kind: "mcp";
  server: string;
  tool: string;
}

/**
 * Connects to every `mcps[]` server at once (each refusal names its server), keeps the tools
 * `policy.tools` selects (an `include` name the server does not advertise refuses the run), and
 * turns each into a server tool named `<server>__<tool>` (made safe for every provider). The
 * server's `policy.permission` and the tool's `readOnlyHint` feed the permission order. A failed,
 * timed-out or `isError` call is a tool error result; nothing waits longer than its time limit.
 */
export async function connectMcpTools(servers: McpServer[], options: McpToolsOptions): Promise<McpToolset> {
  if (!servers.length) return { tools: [], secrets: [], close: async () => {} };
  servers.forEach((server, index) => {
    if (servers.findIndex((other) => other.name === server.name) !== index) {
      throw new BadRequestError(
        `mcps[${index}].name: a server named "${server.name}" is already declared`,
        "duplicate_mcp_server",
      );
    }
  });
  const settled = await Promise.allSettled(
    servers.map((server, index) =>
      connectMcpServer(server, index, { ...options, timeoutMs: options.connectTimeoutMs }),
    ),
  );
  const connected = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const close = async () => {
    await Promise.all(connected.map((server) => server.close()));
  };
  const failure = settled.find((outcome) => outcome.status === "rejected");
  if (failure) {
    await close();
    throw failure.reason;
  }
  try {
    const tools = connected.flatMap((server, index) =>
      selectTools(server, index).map((descriptor) => mcpTool(server, descriptor, options)),
    );
    return { tools, secrets: connected.flatMap((server) => server.secrets), close };
  } catch (error) {
    await close();
    throw error;
  }
}

function selectTools({ server, advertised }: ConnectedMcpServer, index: number): McpToolDescriptor[] {
  const { mode, names } = server.policy.tools;
  if (mode === "all") return advertised;
  const byName = new Map(advertised.map((descriptor) => [descriptor.name, descriptor]));
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length) {
    const offered = advertised.map((descriptor) => descriptor.name).join(", ") || "no tools";
    throw new BadRequestError(
      `mcps[${index}].policy.tools.names: MCP server "${server.name}" does not advertise ${missing.map((name) => `"${name}"`).join(", ")}; it advertises ${offered}`,
      "mcp_tool_not_found",
    );
  }
  return names.map((name) => byName.get(name)!);
}

function mcpTool(
  { server, client, secrets }: ConnectedMcpServer,
  descriptor: McpToolDescriptor,
  options: McpToolsOptions,
): RegisteredTool {
  const label = `"${descriptor.name}" of MCP server "${server.name}"`;
  const run = async (input: unknown, signal?: AbortSignal): Promise<string> => {
    let result;
    try {
      result = await client.callTool(
        { name: descriptor.name, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { timeout: options.callTimeoutMs, signal },
      );
    } catch (error) {
      throw new Error(
        `The tool ${label} could not be called: ${mcpFailureReason(error, options.callTimeoutMs, "MCP_CALL_TIMEOUT_MS")}.`,
        { cause: error },
      );
    }
    const text = mcpToolResultText(result as Parameters<typeof mcpToolResultText>[0], secrets, options.resultMaxBytes);
    if (result.isError)
      throw new Error(maskSecretValues(`The tool ${label} reported an error: ${text}`, secrets, MASKED_SECRET));
    return text;
  };
  // Some providers refuse a `$schema` key inside a function's parameters.
  const schema: Record<string, unknown> = { ...descriptor.inputSchema };
  delete schema.$schema;
  const render: McpRender = { kind: "mcp", server: server.name, tool: descriptor.name };
  return {
    name: mcpToolName(server.name, descriptor.name),
    kind: "server",
    readOnly: descriptor.annotations?.readOnlyHint === true,
    mcpPermission: server.policy.permission,
    render,
    run,
    tool: tool({
      description: descriptor.description ?? `The tool ${label}.`,
      inputSchema: jsonSchema(schema as JSONSchema7),
      execute: (input, { abortSignal }) => run(input, abortSignal),
    }),
  };
}
