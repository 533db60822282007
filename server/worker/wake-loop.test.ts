import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startWakeLoop } from "./wake-loop";

// The loop's timers and its `performance.now()` run on vitest's fake clock: the test moves time
// forward itself, so the spacing is checked to the millisecond and nothing waits on a real timer.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("startWakeLoop", () => {
  it("answers a wake-up of an idle loop at once, and spaces passes under a stream of wake-ups", async () => {
    const starts: number[] = [];
    // A long idle poll: every pass after the first comes from a wake-up.
    const loop = startWakeLoop("test", async () => (starts.push(performance.now()), 0), 60_000, 40);
    await vi.advanceTimersByTimeAsync(100);
    expect(starts).toHaveLength(1);

    const woken = performance.now();
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - woken).toBe(0);

    // 30 wake-ups over 300 ms: passes at most every 40 ms, so far fewer than 30 of them.
    for (let i = 0; i < 30; i++) {
      loop.wake();
      await vi.advanceTimersByTimeAsync(10);
    }
    // The last wake-up's pass falls due within the interval; stopping lets it go.
    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(40);
    await stopped;
    const gaps = starts.slice(2).map((t, i) => t - starts[i + 1]!);
    expect(gaps.length).toBeGreaterThan(2);
    expect(gaps.length).toBeLessThanOrEqual(Math.ceil(300 / 40) + 1);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(40);
  });

  it("without an interval, a wake-up during a pass runs the next one right after it", async () => {
    let passes = 0;
    const loop = startWakeLoop("test", async () => (passes++, 0), 60_000);
    await vi.advanceTimersByTimeAsync(20);
    expect(passes).toBe(1);
    loop.wake();
    loop.wake();
    await vi.advanceTimersByTimeAsync(20);
    await loop.stop();
    expect(passes).toBe(2);
  });

  it("tells a pass it is idle only after an idle wait ran out, not when woken or after work", async () => {
    const idle: boolean[] = [];
    let work = 0;
    const loop = startWakeLoop("test", async (quiet) => (idle.push(quiet), work > 0 ? work-- : 0), 1_000);
    await vi.advanceTimersByTimeAsync(10);
    expect(idle).toEqual([false]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(idle).toEqual([false, true]);
    loop.wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(idle).toEqual([false, true, false]);
    // A pass that finds work is followed at once by one that is not idle either.
    work = 1;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(idle).toEqual([false, true, false, true, false]);
    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });
});
