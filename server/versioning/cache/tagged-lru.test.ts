import { describe, expect, it } from "vitest";
import { parseChangePayload } from "./local-holds";
import { TaggedLru } from "./tagged-lru";

describe("TaggedLru holds", () => {
  const limits = { maxEntries: 10, maxBytes: 1_000 };

  it("drops what a held tag names and stores nothing naming it until every hold is released", () => {
    const lru = new TaggedLru<string>(limits);
    expect(lru.set("a", "old", 1, ["t"], lru.ticket())).toBe(true);
    lru.hold(["t"]);
    lru.hold(["t"]);
    expect(lru.get("a")).toBeUndefined();
    // A read that began after the hold is still refused: the change is not committed yet.
    expect(lru.set("a", "old", 1, ["t"], lru.ticket())).toBe(false);
    expect(lru.set("b", "other", 1, ["u"], lru.ticket())).toBe(true);
    lru.release(["t"]);
    expect(lru.set("a", "old", 1, ["t"], lru.ticket())).toBe(false);
    lru.release(["t"]);
    expect(lru.set("a", "new", 1, ["t"], lru.ticket())).toBe(true);
    expect(lru.get("a")).toBe("new");
  });

  it("reads a hold's id off a notification's payload", () => {
    expect(parseChangePayload("#p.1 e:x h:y")).toEqual({ holdId: "p.1", tags: ["e:x", "h:y"] });
    expect(parseChangePayload("e:x h:y")).toEqual({ tags: ["e:x", "h:y"] });
  });
});
