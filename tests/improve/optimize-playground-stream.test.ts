import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { sseReader, type SseEvent } from "../helpers/sse-reader";
import type { TestApp } from "../helpers/test-app";
import { optimizationPass } from "@/server/improve";
import { evaluationApp, startWorker } from "../evaluations/eval-fixtures";
import { drive, improveModel, read, seedProject, start, startBody } from "./optimize-fixtures";

// The playground's report follows an optimization live over the same event stream as the API,
// authenticated by the session cookie (no API key in the browser) and scoped to the session's
// project, over real HTTP.
let t: TestApp;
let model: ScriptedModelServer;
let server: RunningServer;
let worker: { stop(): Promise<void> };
let owner: HttpClient;
let key: string;

/** Generous: the machine is shared; this bounds a stall, it measures nothing. */
const EVENT_WAIT_MS = 120_000;
/**
 * Each stream on a connection of its own: a pooled one the server closed while the project was
 * seeded (its keep-alive ends after 5 s, and a loaded host runs the client's timer late) resets.
 */
const fresh = new Agent({ pipelining: 0 });

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(improveModel());
  t = await evaluationApp(model);
  server = await serveOverHttp(t);
  worker = startWorker(t);
  owner = new HttpClient(server.origin);
  const signedUp = await owner.send("POST", "/api/accounts/owner", {
    body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
  });
  expect(signedUp.status).toBe(201);
  // The owner's API key seeds the session's project; the stream itself is read with the cookie only.
  key = (await owner.mutate("apiKeys.create", { name: "seed" })).data.key;
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await t?.close();
  await model?.close();
  await fresh.close();
});

const streamPath = (id: string) => `/api/playground/improve/optimizations/${id}/events`;
const openStream = (id: string, headers: Record<string, string> = {}) =>
  fetch(server.origin + streamPath(id), { headers, dispatcher: fresh }) as unknown as Promise<Response>;

/** The next event named `name` (others of the stream are skipped), with its data parsed. */
async function nextEvent(
  stream: ReturnType<typeof sseReader>,
  name: string,
  where: (data: any) => boolean = () => true,
) {
  for (;;) {
    const event: SseEvent = await stream.next(EVENT_WAIT_MS);
    if (event.event === "error") throw new Error(`the stream sent an error: ${event.data}`);
    if (event.event !== name) continue;
    const data = JSON.parse(event.data!);
    if (where(data)) return data;
  }
}

describe("the playground's optimization stream", () => {
  it("streams a running optimization's progress and rounds to the signed-in user, then its end, and closes", async () => {
    const seeded = await seedProject(t, key);
    const started = await start(t, key, startBody(seeded));
    const response = await openStream(started.id, { cookie: owner.cookieHeader });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = sseReader(response);
    // Opened while queued: its progress comes at once, nothing done yet.
    expect(await nextEvent(stream, "progress")).toMatchObject({ cells_done: 0 });

    // Part-way: one step of the optimizer starts it, and it is due again only in a minute (unless
    // driven), so what the stream tells meanwhile is the progress of a running optimization.
    expect(await optimizationPass(t.context, 1, { pollMs: 60_000 })).toBe(1);
    expect((await read(t, key, started.id)).status).toBe("running");
    const live = await nextEvent(stream, "progress", (p) => p.phase !== "queued");
    expect(["baseline", "round"]).toContain(live.phase);
    expect(live.rounds).toBe(2);
    expect(live.cells_done).toBeLessThanOrEqual(live.cells_total);
    expect((await read(t, key, started.id)).status).toBe("running");

    const finished = await drive(t, key, started.id);
    expect(finished.status).toBe("succeeded");
    const round = await nextEvent(stream, "round");
    expect(round).toMatchObject({ round: 1 });
    expect(typeof round.best_score).toBe("number");
    const end = await nextEvent(stream, "finished");
    expect(end).toMatchObject({ id: started.id, status: "succeeded" });
    expect(end.result.winner_revision_id).toBe(finished.result.winner_revision_id);
    await expect(stream.next(EVENT_WAIT_MS)).rejects.toThrow("the stream ended");
  });

  it("refuses an optimization of another project (404) and a request without a session (401)", async () => {
    const other = await t.newProject();
    const seeded = await seedProject(t, other.key, "elsewhere");
    const theirs = await start(t, other.key, startBody(seeded));
    // Their own API key follows it; the signed-in user of another project does not see it.
    expect((await t.call("GET", `/api/improve/optimizations/${theirs.id}`, { key: other.key })).status).toBe(200);
    const refused = await openStream(theirs.id, { cookie: owner.cookieHeader });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: "not_found" });

    const anonymous = await openStream(theirs.id);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "not_signed_in" });
    // An API key is no session: the playground route takes the cookie only.
    const withKey = await openStream(theirs.id, { authorization: `ApiKey ${other.key}` });
    expect(withKey.status).toBe(401);
  });
});
