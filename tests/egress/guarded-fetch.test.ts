import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch, EgressRefusedError, guardedLookup, parseAllowlist } from "@/server/egress";
import { makeTestCertificate } from "../helpers/tls-certificate";

const allow = (list: string) => {
  const parsed = parseAllowlist(list);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.entries;
};

interface Seen {
  host?: string;
  servername?: string | false | null;
  remote?: string;
}

const cert = makeTestCertificate();
let seen: Seen[] = [];
let plain: http.Server;
let secure: https.Server;
let plainPort = 0;
let securePort = 0;

function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  seen.push({
    host: req.headers.host,
    servername: (req.socket as TLSSocket).servername,
    remote: req.socket.localAddress,
  });
  if (req.url === "/echo") {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => res.writeHead(200, { "x-method": req.method ?? "" }).end(body));
    return;
  }
  if (req.url === "/stream") {
    // Server-sent events, as an LLM provider streams them: the client must see chunks as they come.
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: one\n\n");
    // Kept: the pause between chunks is what the client must not wait out before seeing the first.
    setTimeout(() => res.end("data: two\n\n"), 150);
    return;
  }
  if (req.url?.startsWith("/redirect")) {
    const target = new URL(req.url, "http://x").searchParams.get("to")!;
    res.writeHead(302, { location: target }).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/plain" }).end("hello");
}

beforeAll(async () => {
  plain = http.createServer(handler);
  secure = https.createServer({ cert: cert.cert, key: cert.key }, handler);
  await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => secure.listen(0, "127.0.0.1", r));
  plainPort = (plain.address() as AddressInfo).port;
  securePort = (secure.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => plain.close(r));
  await new Promise((r) => secure.close(r));
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EgressRefusedError);
  return (error as EgressRefusedError).reason;
}

describe("guarded fetch against real servers", () => {
  it("refuses loopback literals and names that resolve to loopback", async () => {
    const guarded = createGuardedFetch({ allowlist: [] });
    expect(await refusal(guarded(`http://127.0.0.1:${plainPort}/`))).toContain("loopback");
    expect(await refusal(guarded(`http://[::ffff:127.0.0.1]:${plainPort}/`))).toContain("IPv4-mapped");
    expect(await refusal(guarded(`http://2130706433:${plainPort}/`))).toContain("loopback");
    expect(await refusal(guarded(`http://localhost:${plainPort}/`))).toBe(
      "localhost resolves to 127.0.0.1, a loopback address",
    );
    expect(seen).toHaveLength(0);
  });

  it("connects to an allow-listed address", async () => {
    const guarded = createGuardedFetch({ allowlist: allow("127.0.0.1") });
    const response = await guarded(`http://127.0.0.1:${plainPort}/x`);
    expect(await response.text()).toBe("hello");
  });

  it("keeps the Host header and TLS server name while connecting to the checked address", async () => {
    seen = [];
    const guarded = createGuardedFetch({ allowlist: allow("localhost"), ca: [cert.cert] });
    const response = await guarded(`https://localhost:${securePort}/tls`);
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ host: `localhost:${securePort}`, servername: "localhost", remote: "127.0.0.1" }]);
  });

  it("verifies certificates: without the test CA the self-signed server is rejected", async () => {
    const guarded = createGuardedFetch({ allowlist: allow("localhost") });
    await expect(guarded(`https://localhost:${securePort}/`)).rejects.toThrow();
  });

  it("refuses a redirect to a refused address, and follows one to an allowed address", async () => {
    const onlyTheHost = createGuardedFetch({ allowlist: allow("localhost") });
    const toLoopbackIp = `http://localhost:${plainPort}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${plainPort}/inner`)}`;
    expect(await refusal(onlyTheHost(toLoopbackIp))).toContain("127.0.0.1 is a loopback address");
    const manual = await onlyTheHost(toLoopbackIp, { redirect: "manual" });
    expect(manual.status).toBe(302);

    const both = createGuardedFetch({ allowlist: allow("localhost,127.0.0.1") });
    expect(await (await both(toLoopbackIp)).text()).toBe("hello");
  });

  it("the lookup hands the socket only the checked address", async () => {
    const lookup = guardedLookup(allow("localhost"));
    const result = await new Promise<unknown>((resolve, reject) =>
      lookup("localhost", { all: true, family: 4 }, (error, address) => (error ? reject(error) : resolve(address))),
    );
    expect(result).toEqual([{ address: "127.0.0.1", family: 4 }]);
    const refused = await new Promise<unknown>((resolve) =>
      guardedLookup([])("localhost", { family: 4 }, (error) => resolve(error)),
    );
    expect(refused).toBeInstanceOf(EgressRefusedError);
  });

  it("is a drop-in fetch: Request inputs, streamed bodies read as they arrive (what AI SDK providers need)", async () => {
    const guarded = createGuardedFetch({ allowlist: allow("127.0.0.1") });
    const response = await guarded(new Request(`http://127.0.0.1:${plainPort}/stream`, { method: "POST", body: "{}" }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe("data: one\n\n");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe("data: two\n\n");
    const echoed = await guarded(new Request(`http://127.0.0.1:${plainPort}/echo`, { method: "PUT", body: '{"a":1}' }));
    expect([echoed.headers.get("x-method"), await echoed.text()]).toEqual(["PUT", '{"a":1}']);
    await expect(
      createGuardedFetch({ allowlist: [] })(new Request(`http://127.0.0.1:${plainPort}/stream`)),
    ).rejects.toBeInstanceOf(EgressRefusedError);
  });
});
