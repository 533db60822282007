import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { deployGates, evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import { canaryPass } from "@/server/canaries";
import { checkDueMonitors } from "@/server/monitors";
import { ingestSpans, runSpans } from "../analytics/helpers";
import {
  commit,
  createArtifact,
  dataFor,
  expectStatus,
  lastEvent,
  MISSING_ID as MISSING,
  setup,
  uniq,
  type Ctx,
} from "../versioning/helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const MINUTE = 60_000;

async function deployed(envSlug = uniq("env")) {
  const env = envSlug === "production" ? undefined : await createArtifact(c, "environments", { slug: envSlug });
  const wf = await createArtifact(c, "workflows", { slug: uniq("wf"), data: dataFor("workflows", 1) });
  const v2 = await commit(c, "workflows", wf.variant.id, dataFor("workflows", 2));
  const key = `${wf.artifact.slug}.revision`;
  expectStatus(
    await c.t.call("POST", "/api/workflows/revisions/deploy", {
      key: c.key,
      body: { workflow_revision_ref: { id: wf.revision!.id }, environment_ref: { slug: envSlug } },
    }),
    200,
  );
  return { envSlug, env, wf, v1: wf.revision!, v2, key };
}
type Setup = Awaited<ReturnType<typeof deployed>>;

const start = (s: Setup, body: Record<string, unknown> = {}) =>
  c.t.call("POST", "/api/environments/canaries", {
    key: c.key,
    body: { environment_ref: { slug: s.envSlug }, workflow_revision_ref: { id: s.v2.id }, weight: 10, ...body },
  });
const action = (id: string, verb: string, body: Record<string, unknown> = {}) =>
  c.t.call("POST", `/api/environments/canaries/${id}/${verb}`, { key: c.key, body });

async function envState(s: Setup) {
  const res = await c.t.call("POST", "/api/environments/revisions/retrieve", {
    key: c.key,
    body: { environment_ref: { slug: s.envSlug } },
  });
  expectStatus(res, 200);
  return res.body.environment_revision;
}
const weights = (
  state: { data: { splits?: Record<string, { weight: number; workflow_revision: { id: string } }[]> } },
  key: string,
) => state.data.splits?.[key]?.map((arm) => [arm.workflow_revision.id, arm.weight]);

interface AuditEntry {
  action: string;
  actor: { type: string; user_id?: string };
  target: { type: string; id?: string };
  before?: Record<string, any>;
  after: Record<string, any>;
}
/** A canary's audit entries, oldest first. */
async function auditOf(id: string): Promise<AuditEntry[]> {
  const res = await c.t.call("GET", `/api/audit?target_type=canary&target_id=${id}`, { key: c.key });
  expectStatus(res, 200);
  return [...res.body.audit_entries].reverse();
}

describe("canary releases", () => {
  it("start, then a ramp the worker advances on the injected clock up to promotion, each step a deploy in the history", async () => {
    const s = await deployed();
    const res = await start(s, { ramp: { steps: [25, 50, 100], interval_minutes: 30 } });
    expectStatus(res, 200);
    const canary = res.body.canary;
    expect(canary).toMatchObject({
      status: "running",
      weight: 10,
      key: s.key,
      baseline_revision_id: s.v1.id,
      candidate_revision_id: s.v2.id,
      ramp: { steps: [25, 50, 100], next_step: 25, interval_minutes: 30 },
    });
    expect(weights(await envState(s), s.key)).toEqual([
      [s.v2.id, 10],
      [s.v1.id, 90],
    ]);
    const event = await lastEvent(c, "environments.revisions.committed");
    expect(event.attributes.state.splits[s.key]).toHaveLength(2);

    // Not due yet: nothing moves.
    c.t.advanceClock(29 * MINUTE);
    await canaryPass(c.t.context);
    expect(weights(await envState(s), s.key)).toEqual([
      [s.v2.id, 10],
      [s.v1.id, 90],
    ]);
    c.t.advanceClock(MINUTE);
    await canaryPass(c.t.context);
    expect(weights(await envState(s), s.key)).toEqual([
      [s.v2.id, 25],
      [s.v1.id, 75],
    ]);
    c.t.advanceClock(30 * MINUTE);
    await canaryPass(c.t.context);
    expect(weights(await envState(s), s.key)).toEqual([
      [s.v2.id, 50],
      [s.v1.id, 50],
    ]);
    c.t.advanceClock(30 * MINUTE);
    await canaryPass(c.t.context);
    const promoted = await envState(s);
    expect(promoted.data.splits).toBeUndefined();
    expect(promoted.data.references[s.key].workflow_revision.id).toBe(s.v2.id);
    const got = await c.t.call("GET", `/api/environments/canaries/${canary.id}`, { key: c.key });
    expect(got.body.canary).toMatchObject({ status: "promoted", weight: 100, reason: "the ramp reached 100%" });
    expect(got.body.canary.ramp.next_step).toBeUndefined();

    const log = await c.t.call("POST", "/api/environments/revisions/log", {
      key: c.key,
      body: { environment: { environment_variant_id: s.env!.variant.id } },
    });
    expect(log.body.environment_revisions.map((r: { message: string }) => r.message).slice(0, 5)).toEqual([
      expect.stringMatching(/^Promote canary .* v2 to all traffic$/),
      expect.stringMatching(/^Ramp canary .* v2 to 50%$/),
      expect.stringMatching(/^Ramp canary .* v2 to 25%$/),
      expect.stringMatching(/^Canary .* v2 at 10% of /),
      expect.stringMatching(/^Deploy /),
    ]);
  });

  it("ramps and promotes by hand, rolls back with the reason in the history, and refuses what it cannot do", async () => {
    const s = await deployed();
    const id = (await start(s)).body.canary.id;
    expectStatus(await start(s), 409);
    const ramped = await action(id, "ramp", { weight: 40 });
    expectStatus(ramped, 200);
    expect(weights(await envState(s), s.key)).toEqual([
      [s.v2.id, 40],
      [s.v1.id, 60],
    ]);
    expectStatus(await action(id, "ramp"), 409);
    const rolled = await action(id, "rollback", { reason: "answers got longer" });
    expectStatus(rolled, 200);
    expect(rolled.body.canary).toMatchObject({ status: "rolled_back", reason: "answers got longer" });
    const state = await envState(s);
    expect(state.data.splits).toBeUndefined();
    expect(state.data.references[s.key].workflow_revision.id).toBe(s.v1.id);
    expect(state.message).toMatch(/^Roll back canary .* v2: answers got longer$/);
    expectStatus(await action(id, "promote"), 409);

    const again = (await start(s, { weight: 5 })).body.canary.id;
    expectStatus(await action(again, "promote"), 200);
    expect((await envState(s)).data.references[s.key].workflow_revision.id).toBe(s.v2.id);

    const fresh = await deployed();
    for (const [body, status] of [
      [{ weight: 0 }, 422],
      [{ weight: 100 }, 400],
      [{ ramp: { steps: [5], interval_minutes: 10 } }, 400],
      [{ workflow_revision_ref: { id: fresh.v1.id } }, 400],
    ] as const) {
      const res = await start(fresh, body);
      expectStatus(res, status);
    }
    const nothing = await c.t.call("POST", "/api/environments/canaries", {
      key: c.key,
      body: {
        environment_ref: { slug: fresh.envSlug },
        workflow_revision_ref: { id: fresh.v2.id },
        key: "other.revision",
        weight: 5,
      },
    });
    expectStatus(nothing, 409);
    expect(nothing.body.code).toBe("nothing_deployed");
  });

  it("a plain deploy of the key ends a running canary as replaced", async () => {
    const s = await deployed();
    const id = (await start(s)).body.canary.id;
    expectStatus(
      await c.t.call("POST", "/api/workflows/revisions/deploy", {
        key: c.key,
        body: { workflow_revision_ref: { id: s.v2.id }, environment_ref: { slug: s.envSlug } },
      }),
      200,
    );
    const got = await c.t.call("GET", `/api/environments/canaries/${id}`, { key: c.key });
    expect(got.body.canary.status).toBe("replaced");
  });

  it("a firing live-score guard rolls back and says why; the comparison splits the runs by revision", async () => {
    const s = await deployed();
    const runId = newId();
    const db = c.t.context.db;
    await db
      .insert(evaluationRuns)
      .values({ id: runId, projectId: c.projectId, status: "running", flags: { is_live: true } });
    const res = await start(s, { guards: { min_score: { evaluation_run_id: runId, minimum: 0.5, min_results: 2 } } });
    expectStatus(res, 200);
    const id = res.body.canary.id;
    const now = c.t.context.now().toISOString();
    const candidateRuns = [0, 1].map(() =>
      runSpans({ agent: "a", model: "m", revision: s.v2.id, environment: s.envSlug, start: now, durationMs: 400 }),
    );
    const baselineRun = runSpans({
      agent: "a",
      model: "m",
      revision: s.v1.id,
      environment: s.envSlug,
      start: now,
      durationMs: 100,
    });
    await ingestSpans(
      { t: c.t, key: c.key } as never,
      [...candidateRuns, baselineRun].flatMap((r) => r.spans),
    );
    const score = async (traceId: string, value: number, evaluation = runId) => {
      const runId = evaluation;
      const scenarioId = newId();
      await db.insert(evaluationScenarios).values({ id: scenarioId, projectId: c.projectId, runId, status: "success" });
      await db.insert(evaluationResults).values([
        { id: newId(), projectId: c.projectId, runId, scenarioId, stepKey: "input", status: "success", traceId },
        {
          id: newId(),
          projectId: c.projectId,
          runId,
          scenarioId,
          stepKey: "judge",
          status: "success",
          traceId,
          outputs: { score: value },
        },
      ]);
    };
    // The baseline scores low too, but only the canary's traffic counts; one result is not enough.
    await score(baselineRun.traceId, 0);
    await score(candidateRuns[0]!.traceId, 0.2);
    // Another live evaluation, named by no guard: the comparison shows its score too.
    const other = newId();
    await db
      .insert(evaluationRuns)
      .values({ id: other, projectId: c.projectId, name: "tone", status: "running", flags: { is_live: true } });
    await score(candidateRuns[0]!.traceId, 0.9, other);
    await canaryPass(c.t.context);
    expect((await c.t.call("GET", `/api/environments/canaries/${id}`, { key: c.key })).body.canary.status).toBe(
      "running",
    );

    const comparison = await c.t.call("GET", `/api/environments/canaries/${id}/comparison`, { key: c.key });
    expectStatus(comparison, 200);
    const [baseline, candidate] = comparison.body.comparison.revisions;
    expect(baseline).toMatchObject({
      role: "baseline",
      revision_id: s.v1.id,
      metrics: { count: 1 },
      live_score: { mean: 0, results: 1 },
      live_scores: [{ evaluation_run_id: runId, mean: 0, results: 1 }],
    });
    expect(candidate).toMatchObject({
      role: "candidate",
      revision_id: s.v2.id,
      metrics: { count: 2 },
      live_score: { mean: 0.2, results: 1 },
      live_scores: [
        { evaluation_run_id: runId, mean: 0.2, results: 1 },
        { evaluation_run_id: other, name: "tone", mean: 0.9, results: 1 },
      ],
    });

    await score(candidateRuns[1]!.traceId, 0.4);
    await canaryPass(c.t.context);
    const got = (await c.t.call("GET", `/api/environments/canaries/${id}`, { key: c.key })).body.canary;
    expect(got.status).toBe("rolled_back");
    expect(got.reason).toContain("scored 0.3 on the canary's traffic (2 results), below the guard's 0.5");
    const state = await envState(s);
    expect(state.data.splits).toBeUndefined();
    expect(state.message).toContain("below the guard's 0.5");
  });

  it("a named monitor that fires rolls the canary back, with the monitor, its value and threshold in the history", async () => {
    const s = await deployed();
    const monitor = async (name: string, revision: string) => {
      const res = await c.t.call("POST", "/api/monitors/", {
        key: c.key,
        body: {
          monitor: {
            name,
            metric: { name: "error_rate" },
            scope: { kind: "revision", value: revision },
            window_seconds: 300,
            operator: "above",
            threshold: 0.2,
            recovery_threshold: 0.1,
            min_samples: 3,
          },
        },
      });
      expectStatus(res, 200);
      return res.body.monitor.id as string;
    };
    const guarded = await monitor(uniq("candidate errors"), s.v2.id);
    const quiet = await monitor(uniq("baseline errors"), s.v1.id);

    // Validated at the start: a monitor of no project of the caller's is a 404.
    const other = await c.t.newProject("other");
    const foreign = await c.t.call("POST", "/api/monitors/", {
      key: other.key,
      body: {
        monitor: {
          name: "elsewhere",
          metric: { name: "count" },
          scope: { kind: "project" },
          window_seconds: 300,
          operator: "above",
          threshold: 1,
        },
      },
    });
    expectStatus(foreign, 200);
    for (const ids of [[foreign.body.monitor.id], [guarded, MISSING]]) {
      const res = await start(s, { guards: { monitors: ids } });
      expectStatus(res, 404);
      expect(res.body.code).toBe("monitor_not_found");
    }
    const res = await start(s, { guards: { monitors: [quiet, guarded] } });
    expectStatus(res, 200);
    const id = res.body.canary.id;
    expect(res.body.canary.guards).toEqual({ monitors: [quiet, guarded] });

    const runs = (revision: string, n: number, errors: number) =>
      ingestSpans(
        { t: c.t, key: c.key } as never,
        Array.from({ length: n }, (_, i) =>
          runSpans({
            agent: "a",
            model: "m",
            revision,
            environment: s.envSlug,
            start: new Date(c.t.context.now().getTime() - 20_000).toISOString(),
            durationMs: 100,
            error: i < errors,
          }),
        ).flatMap((r) => r.spans),
      );
    // The baseline is healthy and the candidate too, at first: the guard holds.
    await runs(s.v1.id, 4, 0);
    await runs(s.v2.id, 4, 0);
    c.t.advanceClock(MINUTE);
    await checkDueMonitors(c.t.context, 100);
    await canaryPass(c.t.context);
    expect((await c.t.call("GET", `/api/environments/canaries/${id}`, { key: c.key })).body.canary.status).toBe(
      "running",
    );

    // The candidate fails 4 of 8 runs: its monitor fires, then (before the canary worker looks)
    // recovers; the firing still rolls the canary back at the worker's next pass.
    await runs(s.v2.id, 4, 4);
    c.t.advanceClock(MINUTE);
    await checkDueMonitors(c.t.context, 100);
    await runs(s.v2.id, 32, 0);
    c.t.advanceClock(MINUTE);
    await checkDueMonitors(c.t.context, 100);
    const alerts = await c.t.call("GET", `/api/monitors/${guarded}/alerts`, { key: c.key });
    expect(alerts.body.alerts.map((a: { kind: string }) => a.kind)).toEqual(["resolved", "fired"]);

    await canaryPass(c.t.context);
    const got = (await c.t.call("GET", `/api/environments/canaries/${id}`, { key: c.key })).body.canary;
    expect(got.status).toBe("rolled_back");
    expect(got.reason).toMatch(/^monitor "candidate errors.*" fired: error rate 50%, above the threshold 20%$/);
    const state = await envState(s);
    expect(state.data.splits).toBeUndefined();
    expect(state.data.references[s.key].workflow_revision.id).toBe(s.v1.id);
    expect(state.message).toMatch(/^Roll back canary .* v2: monitor "candidate errors.*" fired: error rate 50%/);

    const audit = await auditOf(id);
    expect(audit.map((e) => [e.action, e.actor.type])).toEqual([
      ["canary.started", "api_key"],
      ["canary.rolled_back", "system"],
    ]);
    expect(audit[1]!.after).toMatchObject({ status: "rolled_back", weight: 0, reason: got.reason });

    // A monitor that is alerting now could not fire during a canary: refused.
    await runs(s.v1.id, 4, 4);
    c.t.advanceClock(MINUTE);
    await checkDueMonitors(c.t.context, 100);
    const refused = await start(s, { guards: { monitors: [quiet] } });
    expectStatus(refused, 409);
    expect(refused.body.code).toBe("monitor_alerting");
    for (const m of [guarded, quiet]) expectStatus(await c.t.call("DELETE", `/api/monitors/${m}`, { key: c.key }), 204);
  });

  it("writes one audit entry per action with its actor: the caller's by hand, the system's for the worker's steps", async () => {
    const s = await deployed();
    const id = (await start(s, { ramp: { steps: [50, 100], interval_minutes: 10 } })).body.canary.id;
    expectStatus(await action(id, "ramp", { weight: 30 }), 200);
    c.t.advanceClock(10 * MINUTE);
    await canaryPass(c.t.context);
    await canaryPass(c.t.context);
    expectStatus(await action(id, "promote"), 200);
    const entries = await auditOf(id);
    expect(entries.map((e) => [e.action, e.actor.type, e.before?.weight, e.after.weight])).toEqual([
      ["canary.started", "api_key", undefined, 10],
      ["canary.ramped", "api_key", 10, 30],
      ["canary.ramped", "system", 30, 50],
      ["canary.promoted", "api_key", 50, 100],
    ]);
    for (const e of entries.filter((x) => x.actor.type === "api_key")) expect(e.actor.user_id).toBe(c.userId);
    expect(entries[0]).toMatchObject({
      target: { type: "canary", id },
      after: {
        reference: s.key,
        candidate_revision_id: s.v2.id,
        baseline_revision_id: s.v1.id,
        status: "running",
        guards: {},
      },
    });

    // v2 runs there now: a second canary on a fresh environment, rolled back by hand.
    const again = (await start(await deployed(), { weight: 5 })).body.canary.id;
    expectStatus(await action(again, "rollback", { reason: "too slow" }), 200);
    expectStatus(await action(again, "rollback"), 409);
    const rolled = await auditOf(again);
    expect(rolled.map((e) => e.action)).toEqual(["canary.started", "canary.rolled_back"]);
    expect(rolled[1]).toMatchObject({
      before: { status: "running" },
      after: { status: "rolled_back", reason: "too slow" },
    });
  });

  it("a min_score guard must name a live evaluation of the project", async () => {
    const s = await deployed();
    const notLive = newId();
    await c.t.context.db.insert(evaluationRuns).values({ id: notLive, projectId: c.projectId, status: "running" });
    const missing = await start(s, { guards: { min_score: { evaluation_run_id: MISSING, minimum: 0.5 } } });
    expectStatus(missing, 404);
    expect(missing.body.code).toBe("evaluation_not_found");
    const res = await start(s, { guards: { min_score: { evaluation_run_id: notLive, minimum: 0.5 } } });
    expectStatus(res, 400);
    expect(res.body.code).toBe("evaluation_not_live");
    expect((await envState(s)).data.splits).toBeUndefined();
  });

  it("production's deploy rule judges the revision entering the split", async () => {
    const s = await deployed("production");
    const testset = await createArtifact(c, "testsets", { slug: uniq("ts"), data: dataFor("testsets", 1) });
    const evaluator = await createArtifact(c, "evaluators", { slug: uniq("ev"), data: dataFor("evaluators", 1) });
    await c.t.context.db.insert(deployGates).values({
      projectId: c.projectId,
      testsetId: testset.artifact.id,
      evaluatorId: evaluator.artifact.id,
      minScore: 0.8,
    });
    const res = await start(s);
    expectStatus(res, 409);
    expect(res.body.code).toBe("evaluation_required");
    expect(res.body.detail).toContain("v");
    const state = await envState(s);
    expect(state.data.splits).toBeUndefined();
  });
});
