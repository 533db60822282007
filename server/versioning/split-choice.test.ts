import { describe, expect, it } from "vitest";
import { armAt, chooseArm, splitBucket, SPLIT_BUCKETS } from "./split-choice";

/** The share of 10,000 keys each arm gets, in percent. */
function shares(weights: number[], salt = "env-1:agent.revision") {
  const arms = weights.map((weight, i) => ({ weight, i }));
  const counts = weights.map(() => 0);
  for (let k = 0; k < 10_000; k++) counts[chooseArm(arms, salt, `session-${k}`).i]++;
  return counts.map((n) => n / 100);
}

describe("split choice", () => {
  it.each([[[90, 10]], [[95, 5]], [[50, 50]], [[40, 30, 20, 10]], [[99.5, 0.5]]])(
    "sends 10,000 keys to %j within 1 point of each weight",
    (weights) => {
      const observed = shares(weights);
      observed.forEach((share, i) => expect(Math.abs(share - weights[i])).toBeLessThan(1));
    },
  );

  it("is a pure function of the salt and key: the same bucket every time, another salt reshuffles", () => {
    const b = splitBucket("env:k", "user-42");
    expect(splitBucket("env:k", "user-42")).toBe(b);
    expect(b).toBeGreaterThanOrEqual(0);
    expect(b).toBeLessThan(SPLIT_BUCKETS);
    const moved = Array.from({ length: 100 }, (_, k) => splitBucket("a", `k${k}`) !== splitBucket("b", `k${k}`));
    expect(moved.filter(Boolean).length).toBeGreaterThan(90);
  });

  it("a key on the first arm stays there as its weight grows (a ramp never moves canary users back)", () => {
    for (let k = 0; k < 2000; k++) {
      const bucket = splitBucket("s", `key-${k}`);
      const at = (w: number) =>
        armAt(
          [
            { weight: w, arm: "canary" },
            { weight: 100 - w, arm: "stable" },
          ],
          bucket,
        ).arm;
      if (at(5) === "canary") expect([at(25), at(50), at(95)]).toEqual(["canary", "canary", "canary"]);
    }
  });
});
