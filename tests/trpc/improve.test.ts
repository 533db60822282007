import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth";
import { createCaller, createContextFrom } from "@/server/trpc";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * The playground's door into the improvement loop: the traces list's filters become a triage's
 * traces evidence, every read is the caller's project's, changes need a member, and the report's
 * diff reads the base's and the winner's revisions by kind.
 */

let t: TestApp;
const callerFor = (principal?: Principal) => createCaller(createContextFrom(t.context, { principal }));

async function owner(label: string): Promise<Principal> {
  const { projectId, userId } = await t.newProject(label);
  return { projectId, userId, role: "owner" };
}

async function refusal(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

let a: Principal;
let b: Principal;

beforeAll(async () => {
  // The model is resolved when a triage starts (a missing key is refused then); no worker runs here.
  t = await createTestApp({ providerEnv: { openai: { key: "sk-improve", baseUrl: "http://127.0.0.1:9/v1" } } });
  a = await owner("improve-a");
  b = await owner("improve-b");
});
afterAll(async () => {
  await t.close();
});

describe("tRPC improve", () => {
  it("writes the traces list's filters as the traces query the evidence takes", async () => {
    const now = t.context.now().getTime();
    const triage = await callerFor(a).improve.startTriage({
      traces: { status: "error", since: "24h", text: "refund" },
    });
    expect(triage.status).toBe("queued");
    expect(triage.method).toBe("heuristic");
    const evidence = triage.evidence as { kind: string; filter: unknown; oldest: string; limit: number };
    expect(evidence.kind).toBe("traces");
    expect(evidence.filter).toEqual({
      operator: "and",
      conditions: [
        { field: "content", operator: "contains", value: "refund" },
        { field: "status_code", value: "STATUS_CODE_ERROR" },
      ],
    });
    // "the last day" is fixed when the triage starts, by the app's clock.
    expect(Math.abs(Date.parse(evidence.oldest) - (now - 86_400_000))).toBeLessThan(60_000);
    expect(evidence.limit).toBe(1000);

    // A chart's window passes as from/to.
    const windowed = await callerFor(a).improve.startTriage({
      traces: { from: "2026-11-01T00:00:00.000Z", to: "2026-11-02T00:00:00.000Z" },
      model: "openai/gpt-5-mini",
      max_examples_per_mode: 3,
    });
    expect(windowed.evidence).toMatchObject({
      kind: "traces",
      oldest: "2026-11-01T00:00:00.000Z",
      newest: "2026-11-02T00:00:00.000Z",
    });
    expect(windowed.model).toBe("openai/gpt-5-mini");
    expect(windowed.max_examples_per_mode).toBe(3);
  });

  it("takes the evidence as the API does, and refuses both or neither with a 422", async () => {
    const run = "00000000-0000-4000-8000-000000000001";
    const bad = await refusal(
      callerFor(a).improve.startTriage({ evidence: { kind: "evaluation_run", run_id: run }, traces: { since: "1h" } }),
    );
    expect(bad.code).toBe("UNPROCESSABLE_CONTENT");
    expect((await refusal(callerFor(a).improve.startTriage({}))).code).toBe("UNPROCESSABLE_CONTENT");
  });

  it("lists and reads only the caller's project's triages; a viewer reads but does not start", async () => {
    const mine = await callerFor(a).improve.triages({ limit: 50 });
    expect(mine.items.length).toBeGreaterThanOrEqual(2);
    expect((await callerFor(b).improve.triages({ limit: 50 })).items).toEqual([]);
    const id = mine.items[0]!.id;
    expect((await callerFor(a).improve.triage({ id })).id).toBe(id);
    expect((await refusal(callerFor(b).improve.triage({ id }))).code).toBe("NOT_FOUND");

    const viewer: Principal = { ...a, role: "viewer" };
    expect((await callerFor(viewer).improve.triages({ limit: 50 })).items.length).toBe(mine.items.length);
    expect((await refusal(callerFor(viewer).improve.startTriage({ traces: { since: "1h" } }))).code).toBe("FORBIDDEN");
    expect((await refusal(callerFor(undefined).improve.triages({ limit: 5 }))).code).toBe("UNAUTHORIZED");
  });

  it("reads an agent's revision for the report's diff, in the caller's project only", async () => {
    const created = await callerFor(a).agents.create({ name: "Refund desk" });
    const revision = await callerFor(a).improve.revision({ id: created.revision.id, kind: "workflow" });
    expect(revision.id).toBe(created.revision.id);
    expect((revision.data as { parameters?: { agent?: unknown } }).parameters?.agent).toBeTruthy();
    expect((await refusal(callerFor(b).improve.revision({ id: created.revision.id, kind: "workflow" }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await callerFor(b).improve.optimizations({ limit: 10 })).items).toEqual([]);
  });
});
