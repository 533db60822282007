import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

// Item 2 of the hardening issue: a route that answers before reading a large body must not leave
// the keep-alive connection hanging. Each case sends 300 KB, reads the early answer, then asks for
// /api/health on the same socket: it must answer (or the socket must close at once, never hang).
describe("an early answer on a keep-alive connection", () => {
  let t: TestApp;
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.newProject()).key;
    server = await serveOverHttp(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const BODY = Buffer.alloc(300 * 1024, "a");
  const cases: { name: string; method: string; path: string; headers?: Record<string, string> }[] = [
    { name: "invite accept, bad token", method: "POST", path: "/api/accounts/invites/nope/accept" },
    { name: "PUT, malformed trace id", method: "PUT", path: "/api/tracing/traces/not-a-trace-id" },
    {
      name: "OTLP, unsupported content type",
      method: "POST",
      path: "/api/otlp/v1/traces",
      headers: { "content-type": "text/plain" },
    },
    { name: "unknown route", method: "POST", path: "/api/nothing-here" },
    { name: "no credentials", method: "POST", path: "/api/tracing/spans/ingest" },
  ];

  for (const c of cases) {
    it(`${c.name}: the next request on the socket is answered`, async () => {
      const socket = connect(Number(new URL(server.origin).port), "127.0.0.1");
      const reader = responses(socket);
      const headers = {
        host: "127.0.0.1",
        "content-length": String(BODY.length),
        "content-type": "application/json",
        ...(c.path === "/api/tracing/traces/not-a-trace-id" || c.path === "/api/otlp/v1/traces"
          ? { authorization: `ApiKey ${key}` }
          : {}),
        ...c.headers,
      };
      socket.write(
        `${c.method} ${c.path} HTTP/1.1\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n`,
      );
      socket.write(BODY);
      const first = await reader.next(2000);
      expect(first.status).toBeGreaterThanOrEqual(400);
      expect(first.status).toBeLessThan(500);
      if (/connection: close/i.test(first.head)) {
        await reader.closed(2000);
        return;
      }
      socket.write("GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
      const second = await reader.next(2000);
      expect(second.status).toBe(200);
      socket.destroy();
    });
  }
});

/** Reads HTTP/1.1 responses (Content-Length bodies) off a raw socket, each within a deadline. */
function responses(socket: Socket) {
  let buffer = Buffer.alloc(0);
  let ended = false;
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    waiters.splice(0).forEach((w) => w());
  });
  socket.on("close", () => {
    ended = true;
    waiters.splice(0).forEach((w) => w());
  });
  socket.on("error", () => {});
  const wait = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return {
    async next(ms: number): Promise<{ status: number; head: string }> {
      const deadline = Date.now() + ms;
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end >= 0) {
          const head = buffer.subarray(0, end).toString();
          const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length >= end + 4 + length) {
            buffer = buffer.subarray(end + 4 + length);
            return { status: Number(head.split(" ")[1]), head };
          }
        }
        if (ended) throw new Error("the connection closed before an answer");
        await wait(Math.max(1, deadline - Date.now()));
      }
    },
    async closed(ms: number) {
      if (!ended) await wait(ms);
      expect(ended).toBe(true);
    },
  };
}
