import https from "node:https";
import type { AddressInfo } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import { makeTestCertificate, type TestCertificate } from "./tls-certificate";

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
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
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
    async waitFor(predicate: () => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline)
          throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.requests.length} requests)`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
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
      const answer = () => {
        if (res.destroyed || req.socket.destroyed) return;
        const status = reply.status ?? 200;
        res.writeHead(status, reply.location ? { location: reply.location } : { "content-type": "text/plain" });
        res.end(reply.body ?? "");
        res.on("finish", () => {
          if (status >= 200 && status < 300) receiver.succeeded.push(String(req.headers["x-service-delivery-id"]));
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
