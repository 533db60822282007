import { describe, expect, it } from "vitest";
import type { FactSpan } from "./span-facts";
import { NARROW_DETAIL, ROLLUP_DETAIL } from "./rollup-columns";
import { RollupDelta } from "./rollup-delta";
import { mergedCosts } from "./rollup-sums";

const span = (costs: Record<string, number>, start = "2026-01-10T01:15:00.123456Z"): FactSpan => ({
  parent_id: "p",
  trace_type: "invocation",
  start_time: start,
  end_time: "2026-01-10T01:15:01.123457Z",
  status_code: "STATUS_CODE_OK",
  user_id: null,
  agent_id: null,
  attributes: { ag: { metrics: { costs: { incremental: costs } } } },
  references: null,
});

const rows = (delta: RollupDelta) => delta.tableRows() as unknown as Record<string, any>[];

describe("RollupDelta", () => {
  it("sums per grain, durations to the microsecond", () => {
    const delta = new RollupDelta();
    delta.addSpan("p1", span({ total: 0.1 }), 1);
    delta.addSpan("p1", span({ total: 0.2 }), 1);
    const out = rows(delta).filter((r) => r.detail === ROLLUP_DETAIL.none);
    expect(out.map((r) => [r.grain, r.bucket])).toEqual([
      ["quarter", "2026-01-10T01:15:00.000Z"],
      ["hour", "2026-01-10T01:00:00.000Z"],
      ["day", "2026-01-10T00:00:00.000Z"],
    ]);
    expect(out[0]).toMatchObject({ spans: 2, duration_ms: 2000.002, latency: { "349": 2 } });
    expect(out[0].costs.total).toBeCloseTo(0.3, 15);
  });

  it("a span taken out cancels to nothing, across a round trip through the queue's JSON", () => {
    const queued = new RollupDelta();
    queued.addSpan("p1", span({ total: 0.1, prompt: 1e-9 }), 1);
    const delta = new RollupDelta();
    delta.mergeJson("p1", queued.toJson());
    delta.addSpan("p1", span({ total: 0.1, prompt: 1e-9 }), -1);
    expect(delta.tableRows()).toEqual([]);
  });

  it("counts a span with a user twice, with it and summed over it; one without once", () => {
    const delta = new RollupDelta();
    delta.addSpan("p1", { ...span({ total: 0.1 }), user_id: "u1" }, 1);
    delta.addSpan("p1", { ...span({ total: 0.2 }), user_id: "u2" }, 1);
    delta.addSpan("p1", span({ total: 0.4 }), 1);
    const days = rows(delta).filter((r) => r.grain === "day");
    const byDetail = (detail: number) =>
      days.filter((r) => r.detail === detail).map((r) => [r.user_id, r.spans, Number(r.costs.total.toFixed(9))]);
    expect(byDetail(ROLLUP_DETAIL.with)).toEqual([
      ["u1", 1, 0.1],
      ["u2", 1, 0.2],
    ]);
    expect(byDetail(ROLLUP_DETAIL.summed)).toEqual([["", 2, 0.3]]);
    expect(byDetail(ROLLUP_DETAIL.none)).toEqual([["", 1, 0.4]]);
  });

  it("keeps a day row per value of each dimension, and one of every span, each counting a span once", () => {
    const delta = new RollupDelta();
    const withRefs = (user: string, model: string) => ({
      ...span({ total: 0.1 }),
      user_id: user,
      attributes: { ag: { meta: { request: { model } }, metrics: { costs: { incremental: { total: 0.1 } } } } },
    });
    delta.addSpan("p1", withRefs("u1", "m1"), 1);
    delta.addSpan("p1", withRefs("u2", "m1"), 1);
    delta.addSpan("p1", { ...span({ total: 0.4 }), start_time: "2026-01-10T09:00:00Z" }, 1);
    const narrow = (detail: number) =>
      rows(delta)
        .filter((r) => r.detail === detail)
        .map((r) => [r.grain, r.model, r.user_id, r.agent, r.spans]);
    expect(narrow(NARROW_DETAIL.total)).toEqual([["day", "", "", "", 3]]);
    expect(narrow(NARROW_DETAIL.model)).toEqual([
      ["day", "m1", "", "", 2],
      ["day", "", "", "", 1],
    ]);
    expect(narrow(NARROW_DETAIL.user)).toEqual([
      ["day", "", "u1", "", 1],
      ["day", "", "u2", "", 1],
      ["day", "", "", "", 1],
    ]);
  });

  it("keeps keys storable: NUL is removed as it is from the stored span", () => {
    const delta = new RollupDelta();
    delta.addSpan("p1", { ...span({}), user_id: "u\u00001" }, 1);
    expect(rows(delta)[0].user_id).toBe("u1");
  });

  it("sums a cost kind named like an object's own property as any other kind", () => {
    // As a client's JSON carries them: "__proto__" an own key, not the prototype.
    const costs = () => JSON.parse('{"constructor": 0.5, "toString": 1, "__proto__": 2, "total": 0.25}');
    const delta = new RollupDelta();
    delta.addSpan("p1", span(costs()), 1);
    delta.addSpan("p1", span(costs()), 1);
    expect(JSON.stringify(rows(delta)[0].costs)).toBe('{"constructor":1,"toString":2,"__proto__":4,"total":0.5}');
  });
});

describe("mergedCosts", () => {
  it("adds in decimal, as numeric does: 0.1 + 0.2 is 0.3, and no digit of a long sum is lost", () => {
    expect(mergedCosts('{"total": 0.1}', { total: 0.2 })).toBe('{"total":0.3}');
    expect(mergedCosts('{"total": 123456789.000000000000000001}', { total: 1e-20 })).toBe(
      '{"total":123456789.00000000000000000101}',
    );
  });

  it("keeps stored keys with escapes, adds new keys, and leaves out sums of 0 and values that are not numbers", () => {
    const stored = '{"a\\"b": 1.5, "gone": 0.25, "nan": null, "\\u0001x": 2}';
    const merged = JSON.parse(mergedCosts(stored, { gone: -0.25, new: 0.5, inf: Infinity }));
    expect(merged).toEqual({ 'a"b': 1.5, "\u0001x": 2, new: 0.5 });
    const proto = JSON.parse(mergedCosts("{}", Object.defineProperty({}, "__proto__", { value: 2, enumerable: true })));
    expect(Object.keys(proto)).toEqual(["__proto__"]);
  });
});
