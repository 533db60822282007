import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool as McpToolDescriptor } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@/server/agent-template";
import { AppError, BadRequestError } from "@/server/core/errors";
import { mcpFailureReason } from "./mcp-failure-reason";

export interface McpConnectOptions {
  /** The egress-guarded fetch: the server's URL is user-supplied. */
  fetch: typeof globalThis.fetch;
  /** A vault secret's value by slug or name; undefined when the vault does not hold it. */
  secretValue?: (name: string) => Promise<string | undefined>;
  timeoutMs: number;
}

export interface ConnectedMcpServer {
  server: McpServer;
  client: Client;
  /** Every tool the server advertises (all pages of tools/list). */
  advertised: McpToolDescriptor[];
  /** The resolved secret header values, to be masked wherever this server's output goes. */
  secrets: string[];
  /** Ends the server's session (when it keeps one) and the connection; never throws. */
  close(): Promise<void>;
}

const MCP_CLIENT_INFO = { name: "agent-service", version: "1.0.0" };

/**
 * Connects to one declared server over Streamable HTTP and lists its tools, before the run
 * starts. Static headers are sent as given; `header_secret_refs` are read from the project's
 * vault now and live only in this client. A server that cannot be reached, initialised or listed
 * in time refuses the run with 424 naming the server; the message is built from what failed
 * (status, refusal, time limit), never from the server's body, which could echo a header.
 */
export async function connectMcpServer(
  server: McpServer,
  index: number,
  options: McpConnectOptions,
): Promise<ConnectedMcpServer> {
  const where = `mcps[${index}] (server "${server.name}")`;
  const secretHeaders: Record<string, string> = {};
  if (server.connection.credentials.type === "header_secret_refs") {
    for (const [header, secretName] of Object.entries(server.connection.credentials.headers)) {
      const value = await options.secretValue?.(secretName);
      if (value === undefined) {
        throw new BadRequestError(
          `${where}: credentials.headers.${header} names secret "${secretName}", which this project's vault does not hold`,
          "secret_not_found",
        );
      }
      secretHeaders[header] = value;
    }
  }
  const transport = new StreamableHTTPClientTransport(new URL(server.connection.url), {
    fetch: plainHeadersFetch(options.fetch),
    requestInit: { headers: { ...server.connection.headers, ...secretHeaders } },
  });
  const client = new Client(MCP_CLIENT_INFO);
  // A failure after the connection is up (the server drops it mid-run) surfaces on the call.
  client.onerror = () => {};
  const close = async () => {
    // A session the server keeps is ended with DELETE, bounded: a hung server must not hold the run.
    const stop = setTimeout(() => void transport.close(), options.timeoutMs);
    await transport.terminateSession().catch(() => undefined);
    clearTimeout(stop);
    await client.close().catch(() => undefined);
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const advertised: McpToolDescriptor[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: options.timeoutMs });
      advertised.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return { server, client, advertised, secrets: Object.values(secretHeaders), close };
  } catch (error) {
    await close();
    throw new AppError(
      424,
      "mcp_server_unavailable",
      `${where} at ${new URL(server.connection.url).host} could not be used: ${mcpFailureReason(error, options.timeoutMs, "MCP_CONNECT_TIMEOUT_MS")}. The run did not start.`,
    );
  }
}

/** The guarded fetch is npm undici's, which rejects another copy's `Headers`; the SDK makes global ones. */
function plainHeadersFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (url, init) =>
    fetch(url, init?.headers instanceof Headers ? { ...init, headers: Object.fromEntries(init.headers) } : init);
}
