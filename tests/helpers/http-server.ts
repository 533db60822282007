import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "@/server/http/router";
import { handleTRPCRequest, TRPC_ENDPOINT } from "@/server/trpc/handler";
import type { TestApp } from "./test-app";

export interface RunningServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * The app behind a real HTTP socket, wired as Next.js wires it: `/api/trpc/*` to the tRPC
 * endpoint, every other `/api/*` path to the REST router (better-auth included).
 */
export function serveOverHttp(t: TestApp): Promise<RunningServer> {
  return serveOnLoopback((request) =>
    new URL(request.url).pathname.startsWith(`${TRPC_ENDPOINT}/`) ? handleTRPCRequest(t.context, request) : t.handle(request),
  );
}

/** Serves a handler on a loopback port, for clients that need a real socket (browsers, exporters, curl). */
export async function serveOnLoopback(handle: RequestHandler): Promise<RunningServer> {
  const server: Server = createServer(async (req, res) => {
    const response = await handle(await toWebRequest(req));
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    res.writeHead(response.status, headers);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function toWebRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
}
