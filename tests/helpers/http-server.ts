import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { RequestHandler } from "@/server/http/router";
import { handleTRPCRequest, TRPC_ENDPOINT } from "@/server/trpc/handler";
import type { TestApp } from "./test-app";

export interface RunningServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * The app behind a real HTTP socket, wired as Next.js wires it: `/api/trpc/*` to the tRPC
 * endpoint, every other path to the REST router (better-auth included).
 */
export function serveOverHttp(t: TestApp): Promise<RunningServer> {
  return serveOnLoopback((request) =>
    new URL(request.url).pathname.startsWith(`${TRPC_ENDPOINT}/`) ? handleTRPCRequest(t.context, request) : t.handle(request),
  );
}

/**
 * A real node:http server around a handler, the way Next.js serves it: the Request keeps the
 * Host it was sent to, its signal aborts when the client goes away, and the response body is
 * streamed as it is produced (cookies as separate Set-Cookie headers).
 */
export async function serveOnLoopback(handle: RequestHandler): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const response = await handle(await toWebRequest(req, abort.signal));
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    res.writeHead(response.status, headers);
    if (!response.body) return res.end();
    res.flushHeaders();
    const body = Readable.fromWeb(response.body as NodeReadableStream);
    body.on("error", () => res.destroy());
    res.on("close", () => body.destroy());
    body.pipe(res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
