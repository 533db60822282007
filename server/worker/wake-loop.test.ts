import { describe, expect, it } from "vitest";
import { startWakeLoop } from "./wake-loop";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("startWakeLoop", () => {
  it("answers a wake-up of an idle loop at once, and spaces passes under a stream of wake-ups", async () => {
    const starts: number[] = [];
    // A long idle poll: every pass after the first comes from a wake-up.
    const loop = startWakeLoop("test", async () => (starts.push(performance.now()), 0), 60_000, 40);
    await sleep(100);
    expect(starts).toHaveLength(1);

    const woken = performance.now();
    loop.wake();
    await sleep(20);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - woken).toBeLessThan(20);

    // 30 wake-ups over ~300 ms: passes at most every 40 ms, so far fewer than 30 of them (no more
    // than the time the wake-ups took allows, however long a loaded host made it).
    const stream = performance.now();
    for (let i = 0; i < 30; i++) {
      loop.wake();
      await sleep(10);
    }
    const streamMs = performance.now() - stream;
    await loop.stop();
    const gaps = starts.slice(2).map((t, i) => t - starts[i + 1]!);
    expect(gaps.length).toBeGreaterThan(2);
    expect(gaps.length).toBeLessThanOrEqual(Math.ceil(streamMs / 40) + 2);
    // Timers may fire a millisecond or two early against performance.now().
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(35);
  });

  it("without an interval, a wake-up during a pass runs the next one right after it", async () => {
    let passes = 0;
    const loop = startWakeLoop("test", async () => (passes++, 0), 60_000);
    await sleep(20);
    loop.wake();
    loop.wake();
    await sleep(20);
    await loop.stop();
    expect(passes).toBe(2);
  });
});
