import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { NodeRequestHandler } from "@/server/boot";
import { createFront } from "@/server/boot";
import type { RequestHandler } from "@/server/http/router";
import { writeReply } from "@/server/http/write-reply";
import { handleTRPCRequest, TRPC_ENDPOINT } from "@/server/trpc/handler";
import { ContractViolations } from "./response-contract";
import type { TestApp } from "./test-app";

export interface RunningServer {
  origin: string;
  /** The node:http server, for a test that awaits what it emits (a response's close). */
  server: Server;
  close(): Promise<void>;
}

/** Which door a test server opens: the production node:http front (server.ts) or the Next.js route. */
export type Door = "node" | "next";

/**
 * The app behind a real HTTP socket. `node` (the default) is wired as server.ts wires it: REST and
 * services to the router's node:http door, the rest (`/api/trpc/*`) to a web handler as Next.js
 * would serve it. `next` serves every path through web Request/Response as the Next.js route does.
 */
export function serveOverHttp(t: TestApp, door: Door = "node"): Promise<RunningServer> {
  const web: RequestHandler = (request) =>
    new URL(request.url).pathname.startsWith(`${TRPC_ENDPOINT}/`)
      ? handleTRPCRequest(t.context, request)
      : t.handle(request);
  // Every JSON success answer of the route table is checked against its declared schema.
  const contract = new ContractViolations();
  if (door === "next") return listenOnLoopback(createServer(contract.node(webAsNode(web))), contract);
  return listenOnLoopback(createServer(contract.node(createFront(t.serve, webAsNode(web)))), contract);
}

/**
 * A real node:http server around a handler, the way Next.js serves it: the Request keeps the
 * Host it was sent to, its signal aborts when the client goes away, and the response body is
 * streamed as it is produced (cookies as separate Set-Cookie headers).
 */
export function serveOnLoopback(handle: RequestHandler): Promise<RunningServer> {
  return listenOnLoopback(createServer(webAsNode(handle)));
}

function webAsNode(handle: RequestHandler): NodeRequestHandler {
  return async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    writeReply(await handle(await toWebRequest(req, abort.signal)), res, false);
  };
}

async function listenOnLoopback(server: Server, contract?: ContractViolations): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      contract?.assertNone();
    },
  };
}

async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, signal });
}
