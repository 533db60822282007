import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { startWebhookWorker } from "@/server/webhooks";
import type { TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { verifyServiceSignature } from "../helpers/webhook-verifier";
import { appFor, commitSomething, subscribe, type Project } from "./helpers";

let receiver: WebhookReceiver;
let t: TestApp;
let worker: ReturnType<typeof startWebhookWorker>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await appFor(receiver);
  // A long idle poll: deliveries within it can only come from LISTEN/NOTIFY wake-ups.
  worker = startWebhookWorker(t.context, { idleMs: 60_000 });
  // The worker sets up LISTEN in the background: awaited before the tests rely on wake-ups.
  await within(5_000, "the webhook worker to listen", worker.listening);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await receiver.close();
});

describe("the running worker", () => {
  it("wakes on the commit's notification and delivers within moments", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    await subscribe(p, receiver.url());
    const started = Date.now();
    await commitSomething(p);
    await receiver.when(() => receiver.succeeded.length === 1, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a deploy through the playground's tRPC router reaches the receiver", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    const sub = await subscribe(p, receiver.url("/deploys"), { event_types: ["environments.revisions.committed"] });
    const caller = createCaller(
      createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "owner" } }),
    );
    const agent = await caller.agents.create({ name: "Deployed agent" });
    await caller.agents.deploy({ revisionId: agent.revision.id, environment: "production", message: "ship it" });
    await receiver.when(() => receiver.requests.some((r) => r.path === "/deploys"), 5_000);
    const request = receiver.requests.find((r) => r.path === "/deploys")!;
    verifyServiceSignature(sub.secret, request.rawBody, request.headers["x-service-signature"] as string);
    const body = JSON.parse(request.rawBody);
    expect(body.event.event_type).toBe("environments.revisions.committed");
    expect(body.event.attributes.references.environment.slug).toBe("production");
    const created = Object.values(body.event.attributes.diff.created) as {
      new: { application_revision?: { id: string }; workflow_revision?: { id: string } };
    }[];
    expect(created).toHaveLength(1);
    expect(JSON.stringify(created[0].new)).toContain(agent.revision.id);
  });
});
