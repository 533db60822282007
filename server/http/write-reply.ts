import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Reply } from "./reply";

/**
 * Writes the router's answer on node:http. A JSON reply is one `writeHead` + `end` with its
 * Content-Length; a `Response` (a stream, better-auth's cookies) is streamed as it is produced,
 * and the stream is cancelled when the client goes away.
 */
export function writeReply(reply: Reply, res: ServerResponse, closeConnection: boolean): void {
  if (!(reply instanceof Response)) {
    const headers = reply.headers;
    if (closeConnection) headers.connection = "close";
    if (reply.body === null) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    headers["content-length"] = String(reply.byteLength ?? Buffer.byteLength(reply.body));
    res.writeHead(reply.status, headers).end(reply.body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  reply.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = reply.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (closeConnection) headers.connection = "close";
  res.writeHead(reply.status, headers);
  if (!reply.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const body = Readable.fromWeb(reply.body as NodeReadableStream);
  body.on("error", () => res.destroy());
  res.on("close", () => body.destroy());
  body.pipe(res);
}
