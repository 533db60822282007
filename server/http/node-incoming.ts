import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { BadRequestError, PayloadTooLargeError } from "@/server/core/errors";
import type { Incoming } from "./incoming";

/** The node:http door's shape: answers on `res`, never rejects. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface NodeIncoming extends Incoming {
  /** Set when the body was refused part-way: the connection must close after the answer. */
  bodyLeftUnread: boolean;
}

// A path the URL parser would rewrite (dot segments, doubled or back slashes): parse it as the
// Next.js door does, so both doors route the same path to the same handler.
const NEEDS_NORMALISING = /\/\.|%2e|\/\/|\\/i;

/**
 * The node:http door's view of a request: path, query and headers read straight off the
 * IncomingMessage, the body read into a Buffer; no web `Request` unless a handler asks for one.
 */
export function nodeIncoming(req: IncomingMessage, res: ServerResponse): NodeIncoming {
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  let request: Request | undefined;
  let bodyTaken = false;
  const incoming: NodeIncoming = {
    method: req.method ?? "GET",
    pathname: NEEDS_NORMALISING.test(path) ? new URL(path, "http://localhost").pathname : path,
    search: q < 0 ? "" : target.slice(q + 1),
    bodyLeftUnread: false,
    header(name) {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    readBody(limit) {
      bodyTaken = true;
      return readNodeBody(req, limit).catch((error: unknown) => {
        incoming.bodyLeftUnread = true;
        throw error;
      });
    },
    get request() {
      return (request ??= toWebRequest(req, res, !bodyTaken));
    },
  };
  return incoming;
}

/** At most `limit` bytes: a declared Content-Length over it is refused before reading anything. */
function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const length = req.headers["content-length"];
  const declared = length === undefined ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  if (declared === 0 || (length === undefined && req.headers["transfer-encoding"] === undefined)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause();
        reject(new PayloadTooLargeError(limit));
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onAborted = () => {
      done();
      reject(new BadRequestError("The client closed the connection before sending the whole body", "body_aborted"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/**
 * The web `Request` Next.js would have built: the Host it was sent to, its signal aborted when the
 * client goes away (streams stop), the body still unread as a stream unless the router took it.
 */
function toWebRequest(req: IncomingMessage, res: ServerResponse, withBody: boolean): Request {
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? "GET";
  const body = withBody && method !== "GET" && method !== "HEAD" ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined;
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body,
    duplex: "half",
    signal: abort.signal,
  } as RequestInit);
}

