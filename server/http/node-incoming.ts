import type { IncomingMessage, ServerResponse } from "node:http";
import { BadRequestError, PayloadTooLargeError } from "@/server/core/errors";
import type { Incoming } from "./incoming";

/** The node:http door's shape: answers on `res`, never rejects. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface NodeIncoming extends Incoming {
  /**
   * Called once the answer is known: the rest of a body no handler read (or refused part-way) is
   * read and dropped, up to `limit` bytes, so a client that sends its whole body before reading
   * the answer (most do) gets the answer instead of a broken pipe, and the next request on the
   * keep-alive connection is not stuck behind it. A body declared larger than `limit`, or one
   * that goes past it, is cut off: the answer closes the connection. False when it must close.
   */
  settleBody(limit: number): boolean;
}

// A path the URL parser would rewrite (dot segments, doubled or back slashes): parse it as the
// Next.js door does, so both doors route the same path to the same handler.
const NEEDS_NORMALISING = /\/\.|%2e|\/\/|\\/i;

/**
 * The node:http door's view of a request: path, query and headers read straight off the
 * IncomingMessage, the body read into a Buffer; no web `Request` unless a handler asks for one.
 * A class, not an object of closures: one allocation per request on the hot path.
 */
export function nodeIncoming(req: IncomingMessage, res: ServerResponse): NodeIncoming {
  return new NodeIncomingRequest(req, res);
}

class NodeIncomingRequest implements NodeIncoming {
  readonly method: string;
  readonly pathname: string;
  readonly search: string;
  /** A route asked for the body, and its whole declared length was taken. */
  private bodyRead = false;
  private bodyTaken = false;
  private webRequest: Request | undefined;
  private detachStream: (() => void) | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q < 0 ? target : target.slice(0, q);
    this.method = req.method ?? "GET";
    this.pathname = NEEDS_NORMALISING.test(path) ? new URL(path, "http://localhost").pathname : path;
    this.search = q < 0 ? "" : target.slice(q + 1);
  }

  get peer(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  header(name: string): string | null {
    const value = this.req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<Buffer | undefined> {
    this.bodyTaken = true;
    const taken = takeBufferedBody(this.req, limit);
    if (taken !== NOT_BUFFERED) {
      this.bodyRead = true;
      return Promise.resolve(taken);
    }
    return readNodeBody(this.req, limit).then((body) => {
      this.bodyRead = true;
      return body;
    });
  }

  get request(): Request {
    if (!this.webRequest) {
      const req = this.req;
      const body = !this.bodyTaken && req.method !== "GET" && req.method !== "HEAD" ? bodyStream(req) : undefined;
      this.detachStream = body?.detach;
      this.webRequest = toWebRequest(req, this.res, body?.stream);
    }
    return this.webRequest;
  }

  settleBody(limit: number): boolean {
    const req = this.req;
    if (this.bodyRead || req.complete) return true;
    this.detachStream?.();
    if (Number(req.headers["content-length"]) > limit || req.destroyed) return false;
    let drained = 0;
    req.on("data", (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > limit) req.socket.destroy();
    });
    req.resume();
    return true;
  }
}

const NOT_BUFFERED = Symbol("not buffered");

/**
 * The body when it needs no reading: none declared, or all of its declared length already in
 * the stream's buffer (a small body arrives in the packet of its headers, and node:http has
 * parsed it by the time the route asks). Taken in one `read()`, without listeners or a turn of
 * the event loop. NOT_BUFFERED when it must be read as it comes.
 */
function takeBufferedBody(req: IncomingMessage, limit: number): Buffer | undefined | typeof NOT_BUFFERED {
  const length = req.headers["content-length"];
  if (length === undefined) return req.headers["transfer-encoding"] === undefined ? undefined : NOT_BUFFERED;
  const declared = Number(length);
  if (declared === 0) return undefined;
  if (!(declared <= limit) || req.readableFlowing || req.readableLength !== declared) return NOT_BUFFERED;
  return (req.read() as Buffer | null) ?? undefined;
}

/**
 * The request body as a web stream, read as the handler pulls it (back-pressure pauses the
 * socket), and detachable: once the answer is sent, what is left is drained rather than held.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; detach: () => void } {
  let detached = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => controller.close();
  const onError = (error: Error) => controller.error(error);
  const detach = () => {
    if (detached) return;
    detached = true;
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("error", onError);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.pause();
        req.on("data", onData);
        req.on("end", onEnd);
        req.on("error", onError);
      },
      pull() {
        if (!detached) req.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { stream, detach };
}

/** At most `limit` bytes: a declared Content-Length over it is refused before reading anything. */
function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const length = req.headers["content-length"];
  const declared = length === undefined ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  if (declared === 0 || (length === undefined && req.headers["transfer-encoding"] === undefined))
    return Promise.resolve(undefined);
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
function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  body: ReadableStream<Uint8Array> | undefined,
): Request {
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? "GET";
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body,
    duplex: "half",
    signal: abort.signal,
  } as RequestInit);
}
