import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

// An upload over the size limit gets its 413, and the client can read it: the server reads and
// drops the rest of the body (up to a bound) instead of closing the connection while the client
// is still sending, which clients report as EPIPE or ECONNRESET rather than the answer.
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

const ELEVEN_MIB = Buffer.alloc(11 * 1024 * 1024, "a");

const ROUTES = [
  { name: "span ingest", path: "/api/tracing/spans/ingest", type: "application/json" },
  { name: "OTLP protobuf", path: "/api/otlp/v1/traces", type: "application/x-protobuf" },
  { name: "OTLP JSON", path: "/api/otlp/v1/traces", type: "application/json" },
];

describe.each(ROUTES)("an 11 MiB upload to $name", ({ path, type }) => {
  it("fetch reads the 413, every time", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.origin}${path}`, {
        method: "POST",
        headers: { authorization: `ApiKey ${key}`, "content-type": type },
        body: ELEVEN_MIB,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: "payload_too_large" });
    }
  });

  it.each([
    ["a declared length", { "content-length": String(ELEVEN_MIB.length) }],
    ["chunked", { "transfer-encoding": "chunked" }],
  ])(
    "a client that sends its whole body before reading (%s) reads the 413, then reuses the connection",
    async (_n, framing) => {
      const socket = connect(Number(new URL(server.origin).port), "127.0.0.1");
      let received = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => (received += chunk));
      const failed = new Promise<Error>((resolve) => socket.on("error", resolve));
      const closed = new Promise<Error>((resolve) =>
        socket.on("close", () => resolve(new Error("closed while sending"))),
      );
      const head = Object.entries({
        host: "127.0.0.1",
        authorization: `ApiKey ${key}`,
        "content-type": type,
        ...framing,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      const chunked = "transfer-encoding" in framing;
      // As Python's http.client or a shell script's curl: every byte written, and only then read.
      const sent = new Promise<void>((resolve) => {
        socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
        for (let at = 0; at < ELEVEN_MIB.length; at += 1024 * 1024) {
          const piece = ELEVEN_MIB.subarray(at, at + 1024 * 1024);
          socket.write(
            chunked
              ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
              : piece,
          );
        }
        socket.write(chunked ? "0\r\n\r\n" : "", () => resolve());
      });
      const outcome = await Promise.race([sent.then(() => undefined), failed, closed]);
      expect(outcome?.message).toBeUndefined();
      // A whole answer (head and JSON body) received: checked on each chunk the socket reads.
      const answered = () =>
        within(
          10_000,
          "the answer",
          new Promise<void>((resolve, reject) => {
            const check = () => {
              if (!/\r\n\r\n\{.*\}/s.test(received)) return;
              socket.off("data", check);
              resolve();
            };
            socket.on("data", check);
            socket.once("close", () => reject(new Error("the connection was dropped instead of answered")));
            check();
          }),
        );
      await answered();
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toContain('"code":"payload_too_large"');
      // The body was read to its end, so the connection serves the next request.
      received = "";
      socket.write("GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
      await answered();
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      socket.destroy();
    },
  );
});
