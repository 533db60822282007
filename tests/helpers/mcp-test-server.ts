import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A real MCP server for tests: the SDK's `McpServer` over its Streamable HTTP server transport,
 * on a loopback node:http server: stateless (one server per request, as the SDK's own example),
 * or `stateful` (a session per client, ended by the client's DELETE).
 * Tools: `echo` (text), `fail` (an isError result), `slow` (waits `ms`), `whoami` (checks the
 * `x-api-key` header against `secret` and echoes it back), `lookup` (readOnlyHint), `files.read`
 * (a name no provider accepts as is).
 */
export interface McpTestServer {
  url: string;
  /** Headers of every POST the server received. */
  requests: http.IncomingHttpHeaders[];
  /** Tool calls the server ran, by name. */
  calls: string[];
  /** Resolves once `name` has been called `count` times in all (at once if it has), told by the call itself. */
  called(name: string, count: number): Promise<void>;
  /** Stateful servers: the sessions started and not yet ended by the client. */
  openSessions: Set<string>;
  /** Stateful servers: resolves once no session is open (at once if none is), told by the session's end. */
  sessionsEnded(): Promise<void>;
  close(): Promise<void>;
}

export async function startMcpTestServer(
  options: { secret?: string; stateful?: boolean } = {},
): Promise<McpTestServer> {
  const requests: http.IncomingHttpHeaders[] = [];
  const calls: string[] = [];
  const callWaiters: Array<() => void> = [];
  const record = (name: string) => {
    calls.push(name);
    for (const wake of callWaiters.splice(0)) wake();
  };
  const called = async (name: string, count: number) => {
    while (calls.filter((c) => c === name).length < count)
      await new Promise<void>((resolve) => callWaiters.push(resolve));
  };
  const openSessions = new Set<string>();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let noneOpen: Array<() => void> = [];
  const sessionsEnded = () => new Promise<void>((resolve) => (openSessions.size ? noneOpen.push(resolve) : resolve()));

  const build = (headers: http.IncomingHttpHeaders): McpServer => {
    const server = new McpServer({ name: "test-tools", version: "1.0.0" });
    const text = (value: string, isError = false) => ({ content: [{ type: "text" as const, text: value }], isError });
    server.registerTool(
      "echo",
      { description: "Echoes its text.", inputSchema: { text: z.string() } },
      async ({ text: value }) => {
        record("echo");
        return text(`echo: ${value}`);
      },
    );
    server.registerTool("fail", { description: "Always fails." }, async () => {
      record("fail");
      return text("the database is on fire", true);
    });
    server.registerTool(
      "slow",
      { description: "Answers after ms milliseconds.", inputSchema: { ms: z.number() } },
      async ({ ms }) => {
        record("slow");
        await new Promise((resolve) => setTimeout(resolve, ms));
        return text(`waited ${ms} ms`);
      },
    );
    server.registerTool("whoami", { description: "Says who the caller is." }, async () => {
      record("whoami");
      const given = headers["x-api-key"];
      if (given !== options.secret) return text("wrong or missing x-api-key", true);
      return text(`authorized with key ${given}`);
    });
    server.registerTool(
      "lookup",
      { description: "Looks an id up.", inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
      async ({ id }) => {
        record("lookup");
        return text(`record ${id}: ok`);
      },
    );
    server.registerTool(
      "files.read",
      { description: "Reads a remote file.", inputSchema: { path: z.string() } },
      async ({ path }) => {
        record("files.read");
        return text(`contents of ${path}`);
      },
    );
    return server;
  };

  const sockets = new Set<Socket>();
  const stateful = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
        openSessions.add(sessionId);
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
        openSessions.delete(sessionId);
        if (openSessions.size) return;
        for (const resolve of noneOpen) resolve();
        noneOpen = [];
      },
    });
    await build(req.headers).connect(transport);
    await transport.handleRequest(req, res);
  };

  const server = http.createServer(async (req, res) => {
    if (req.method === "GET" || (req.method === "DELETE" && !options.stateful)) {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    if (req.method === "POST") requests.push(req.headers);
    if (options.stateful) return stateful(req, res);
    const mcp = build(req.headers);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    calls,
    called,
    openSessions,
    sessionsEnded,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that accepts connections and never answers: what a hung MCP server looks like. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => {});
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
