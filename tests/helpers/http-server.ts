import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { RequestHandler } from "@/server/http/router";

export interface LiveServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A real node:http server around the router handler, the way Next.js serves it: the Request's
 * signal aborts when the client goes away, and the response body is streamed as it is produced.
 */
export async function serveHandler(handle: RequestHandler): Promise<LiveServer> {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body, signal: abort.signal }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    res.flushHeaders();
    const nodeStream = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
    nodeStream.on("error", () => res.destroy());
    res.on("close", () => nodeStream.destroy());
    nodeStream.pipe(res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
