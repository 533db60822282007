import { describe, expect, it, vi } from "vitest";
import { WarmSessionPool } from "./warm-session-pool";

const session = () => {
  const value = { closed: 0, close: async () => void value.closed++ };
  return value;
};

describe("WarmSessionPool", () => {
  it("a taken session is out of the pool until parked again", () => {
    const pool = new WarmSessionPool<ReturnType<typeof session>>({ idleMs: 60_000, max: 4 });
    const a = session();
    pool.park("p/a", a);
    expect(pool.take("p/a")).toBe(a);
    expect(pool.take("p/a")).toBeUndefined();
    expect(a.closed).toBe(0);
  });

  it("closes a session left idle past idleMs", async () => {
    // The pool's idle timer runs on vitest's fake clock, moved past idleMs (not slept out).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const pool = new WarmSessionPool<ReturnType<typeof session>>({ idleMs: 30, max: 4 });
      const a = session();
      pool.park("p/a", a);
      await vi.advanceTimersByTimeAsync(29);
      expect(a.closed).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(a.closed).toBe(1);
      expect(pool.take("p/a")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("closes the longest-idle session past max, and a replaced one", () => {
    const pool = new WarmSessionPool<ReturnType<typeof session>>({ idleMs: 60_000, max: 2 });
    const [a, b, c, d] = [session(), session(), session(), session()];
    pool.park("p/a", a);
    pool.park("p/b", b);
    pool.park("p/c", c);
    expect(a.closed).toBe(1);
    expect(pool.size).toBe(2);
    pool.park("p/b", d);
    expect(b.closed).toBe(1);
    void pool.closeAll();
    expect([c.closed, d.closed]).toEqual([1, 1]);
  });

  it("whenEmpty resolves once the idle expiry's close has ended, and at once for an empty pool", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const pool = new WarmSessionPool<{ close(): Promise<void> }>({ idleMs: 30, max: 4 });
      await pool.whenEmpty();
      let endClose!: () => void;
      pool.park("p/a", { close: () => new Promise<void>((resolve) => (endClose = resolve)) });
      let empty = false;
      void pool.whenEmpty().then(() => (empty = true));
      await vi.advanceTimersByTimeAsync(30);
      expect(empty).toBe(false);
      endClose();
      await vi.advanceTimersByTimeAsync(0);
      expect(empty).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
