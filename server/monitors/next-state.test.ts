import { describe, expect, it } from "vitest";
import { nextState, type Before, type Thresholds } from "./next-state";

const t: Thresholds = { operator: "below", threshold: 10, recoveryThreshold: 12, minSamples: 2, renotifySeconds: 300 };
const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));
const ok: Before = { state: "ok", stateSince: at(0), lastNotifiedAt: null };

describe("nextState", () => {
  it("fires below a 'below' threshold and resolves only past the recovery value", () => {
    const fired = nextState(t, ok, { value: 9, samples: 5 }, at(1), false);
    expect(fired).toMatchObject({ state: "alerting", alert: "fired", stateSince: at(1), lastNotifiedAt: at(1) });
    expect(nextState(t, fired, { value: 11, samples: 5 }, at(2), false)).toMatchObject({
      state: "alerting",
      alert: null,
    });
    expect(nextState(t, fired, { value: 12, samples: 5 }, at(2), false)).toMatchObject({
      state: "ok",
      alert: "resolved",
    });
  });

  it("re-notifies at the interval, not before", () => {
    const fired = nextState(t, ok, { value: 1, samples: 5 }, at(1), false);
    expect(nextState(t, fired, { value: 1, samples: 5 }, at(5), false).alert).toBeNull();
    expect(nextState(t, fired, { value: 1, samples: 5 }, at(6), false)).toMatchObject({
      alert: "renotified",
      stateSince: at(1),
      lastNotifiedAt: at(6),
    });
  });

  it("is no_data below the minimum samples, and an alert resolves into it", () => {
    expect(nextState(t, ok, { value: 0, samples: 1 }, at(1), false)).toMatchObject({ state: "no_data", alert: null });
    const fired = nextState(t, ok, { value: 1, samples: 5 }, at(1), false);
    expect(nextState(t, fired, { value: null, samples: 0 }, at(2), false)).toMatchObject({
      state: "no_data",
      alert: "resolved",
    });
  });

  it("muted: records the firing without counting it as notified", () => {
    const fired = nextState(t, ok, { value: 1, samples: 5 }, at(1), true);
    expect(fired).toMatchObject({ alert: "fired", lastNotifiedAt: null });
    expect(nextState(t, fired, { value: 1, samples: 5 }, at(2), true).alert).toBeNull();
    expect(nextState(t, fired, { value: 1, samples: 5 }, at(3), false).alert).toBe("renotified");
  });
});
