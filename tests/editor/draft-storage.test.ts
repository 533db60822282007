import { describe, expect, it } from "vitest";
import { createDraftStore, draftKey, type StoredDraft } from "@/components/editor/draft-storage";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const draft: StoredDraft = {
  baseRevisionId: "r1",
  baseVersion: "1",
  text: '{"a":',
  message: "wip",
  savedAt: "2025-01-01T00:00:00.000Z",
};

describe("draft storage", () => {
  it("keeps one draft per variant, including text that is not valid JSON", () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    store.write("v1", draft);
    expect(store.read("v1")).toEqual(draft);
    expect(store.read("v2")).toBeNull();
    expect(storage.map.has(draftKey("v1"))).toBe(true);
    store.clear("v1");
    expect(store.read("v1")).toBeNull();
  });

  it("ignores corrupt entries and defaults a missing message", () => {
    const storage = memoryStorage();
    storage.setItem(draftKey("bad"), "{not json");
    storage.setItem(draftKey("shape"), JSON.stringify({ text: 1 }));
    const { message: _m, ...old } = draft;
    storage.setItem(draftKey("old"), JSON.stringify(old));
    const store = createDraftStore(storage);
    expect(store.read("bad")).toBeNull();
    expect(store.read("shape")).toBeNull();
    expect(store.read("old")).toEqual({ ...draft, message: "" });
  });

  it("works without storage, and survives a storage that throws", () => {
    const none = createDraftStore(null);
    none.write("v", draft);
    expect(none.read("v")).toBeNull();
    const throwing = createDraftStore({
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    });
    expect(() => throwing.write("v", draft)).not.toThrow();
    expect(throwing.read("v")).toBeNull();
    expect(() => throwing.clear("v")).not.toThrow();
  });
});
