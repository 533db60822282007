import https from "node:https";
import type { AddressInfo } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import { makeTestCertificate, type TestCertificate } from "./tls-certificate";
import { within } from "./within";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived, for signature checks. */
  rawBody: string;
  at: number;
}

export interface Reply {
  status?: number;
  body?: string;
  delayMs?: number;
  location?: string;
}

/**
 * A real HTTPS webhook endpoint on 127.0.0.1 with a self-signed certificate. It records every
 * request, answers as `reply` says (fail, be slow, redirect), and counts a delivery id as
 * succeeded only when a 2xx answer was actually written to a live connection.
 */
export interface WebhookReceiver {
  certificate: TestCertificate;
  port: number;
  url(path?: string): string;
  requests: ReceivedRequest[];
  succeeded: string[];
  reply: (request: ReceivedRequest, index: number) => Reply;
  /**
   * Resolves once `predicate` holds: checked now, then on every request received and every
   * answer sent (never on a timer); past `timeoutMs` it fails with the count of requests.
   */
  when(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(certificate = makeTestCertificate()): Promise<WebhookReceiver> {
  const receiver = {
    certificate,
    port: 0,
    requests: [] as ReceivedRequest[],
    succeeded: [] as string[],
    reply: (() => ({ status: 200, body: "ok" })) as WebhookReceiver["reply"],
    url: (path = "/hook") => `https://localhost:${receiver.port}${path}`,
    when(predicate: () => boolean, timeoutMs = 10_000) {
      if (predicate()) return Promise.resolve();
      let check!: () => void;
      const held = new Promise<void>((resolve) => {
        check = () => {
          if (!predicate()) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
      });
      return within(timeoutMs, `receiver (${receiver.requests.length} requests so far)`, held).finally(() =>
        watchers.delete(check),
      );
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  /** `when` callers' checks, run on every request received and answer sent. */
  const watchers = new Set<() => void>();
  const observed = () => {
    for (const check of [...watchers]) check();
  };
  const server = https.createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: ReceivedRequest = {
        path: req.url ?? "/",
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      const index = receiver.requests.push(request) - 1;
      const reply = receiver.reply(request, index);
      observed();
      const answer = () => {
        if (res.destroyed || req.socket.destroyed) return;
        const status = reply.status ?? 200;
        res.writeHead(status, reply.location ? { location: reply.location } : { "content-type": "text/plain" });
        res.end(reply.body ?? "");
        res.on("finish", () => {
          if (status >= 200 && status < 300) receiver.succeeded.push(String(req.headers["x-service-delivery-id"]));
          observed();
        });
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}
