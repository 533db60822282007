import { validate, version } from "uuid";
import { describe, expect, it } from "vitest";
import { idFloor, newId, randomHex } from "./ids";

const timestampOf = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("newId", () => {
  it("is a valid RFC 9562 version 7 UUID (checked by the uuid package)", () => {
    for (let i = 0; i < 1000; i++) {
      const id = newId();
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id[19]).toMatch(/[89ab]/); // variant 10
    }
  });

  it("carries the creation time in milliseconds", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    // A sequence overflow may push it one millisecond ahead, never behind.
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after + 1);
  });

  it("sorts in creation order within one millisecond and never repeats", () => {
    const ids = Array.from({ length: 50_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
    // Many ids shared a millisecond, so the ordering above was the sequence's doing.
    expect(new Set(ids.map(timestampOf)).size).toBeLessThan(ids.length / 10);
  });

  it("spreads the random bits", () => {
    const tails = new Set(Array.from({ length: 2000 }, () => newId().slice(-8)));
    expect(tails.size).toBeGreaterThan(1990);
  });
});

describe("randomHex", () => {
  it("gives that many random bytes as hex, never the same bytes twice, across the pool's refills", () => {
    // 4,000 span ids are 32,000 bytes: the 4 KiB pool is refilled several times on the way.
    const ids = Array.from({ length: 4000 }, () => randomHex(8));
    expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
  });
});

it("idFloor orders with UUIDv7 ids by their millisecond", () => {
  const start = Date.now();
  const id = newId();
  expect(idFloor(start - 1) <= id).toBe(true);
  expect(id < idFloor(Date.now() + 1_000)).toBe(true);
  expect(idFloor(0)).toBe("00000000-0000-0000-0000-000000000000");
});
