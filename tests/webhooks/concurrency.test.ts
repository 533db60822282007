import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, webhookDeliveries } from "@/server/db/schema";
import { webhookWorker } from "@/server/webhooks";
import { eventually } from "../helpers/eventually";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, commitSomething, subscribe, type Project } from "./helpers";

const secretKey = randomBytes(32);

describe.skipIf(!process.env.DATABASE_URL)("webhook workers on PostgreSQL", () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await appFor(receiver, { secretKey, webhookTimeoutMs: 1_000, webhookRetryScheduleMs: [0, 50, 50, 50, 50] });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await t.close();
    await receiver.close();
  });

  async function allDeliveries() {
    return t.database.db.select().from(webhookDeliveries);
  }

  it("several workers at once: every event matched once, every delivery sent once", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url("/a"));
    await subscribe(p, receiver.url("/b"));
    for (let i = 0; i < 40; i++) await commitSomething(p);

    // Four workers racing over the same tables, each pass a transaction on its own connection.
    const race = async () => {
      for (let idle = 0; idle < 3;) idle = (await webhookWorker.drain(t.context, 7)) === 0 ? idle + 1 : 0;
    };
    await Promise.all([race(), race(), race(), race()]);

    const rows = await allDeliveries();
    expect(rows).toHaveLength(80);
    expect(rows.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
    expect(receiver.requests).toHaveLength(80);
    expect(new Set(receiver.succeeded).size).toBe(80);
    const left = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(isNull(events.fannedOutAt));
    expect(left[0].n).toBe(0);
  });

  function spawnWorker(): ChildProcess {
    // `node --import tsx`, not the tsx binary: that one runs the script in a child process,
    // which a SIGKILL to the binary would leave running.
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/boot/worker-main.ts")], {
      env: {
        ...process.env,
        DATABASE_URL: t.database.url,
        APP_SECRET_KEY: secretKey.toString("hex"),
        EGRESS_ALLOWLIST: "localhost",
        NODE_EXTRA_CA_CERTS: receiver.certificate.certFile,
        WEBHOOK_TIMEOUT_MS: "1000",
        WEBHOOK_RETRY_SCHEDULE: "0,50ms,50ms,50ms,50ms",
        LOG_LEVEL: "silent",
      },
      stdio: "ignore",
    });
    children.push(child);
    return child;
  }

  it("kill -9 mid-delivery loses nothing: each delivery id succeeds exactly once", async () => {
    receiver.requests.length = 0;
    receiver.succeeded.length = 0;
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url("/crash"));
    // Hold every answer: the worker is killed while its requests are in flight.
    let holding = true;
    receiver.reply = () => (holding ? { status: 200, delayMs: 60_000 } : { status: 200 });
    for (let i = 0; i < 10; i++) await commitSomething(p);

    const first = spawnWorker();
    // The bound covers a worker process starting (tsx and the app's boot): generous for loaded hosts.
    await receiver.when(() => receiver.requests.length >= 10, 60_000);
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    expect(first.signalCode).toBe("SIGKILL");
    holding = false;
    expect(receiver.succeeded).toHaveLength(0);

    // Two fresh workers take over once the dead worker's leases run out.
    spawnWorker();
    spawnWorker();
    const mine = async () => (await allDeliveries()).filter((d) => d.url.endsWith("/crash"));
    // Recorded by the worker processes: only their rows tell, so they are polled.
    const rows = await eventually(
      "the deliveries to complete after the crash",
      async () => {
        const found = await mine();
        return found.every((d) => d.status === "succeeded") && found;
      },
      { ms: 30_000, intervalMs: 100 },
    );
    expect(rows).toHaveLength(10);
    expect([...receiver.succeeded].sort()).toEqual(rows.map((d) => d.id).sort());
    // The killed attempt counts: it may have reached the endpoint.
    expect(rows.every((d) => d.attempts === 2)).toBe(true);
  }, 120_000);
});
