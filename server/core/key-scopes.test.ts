import { describe, expect, it } from "vitest";
import { missingScope, requireScope } from "./key-scopes";

describe("missingScope", () => {
  const read = { readsOnly: true };
  const change = { readsOnly: false };
  const invoke = { readsOnly: false, keyScope: "run" as const };
  const ingest = { readsOnly: false, keyScope: "ingest" as const };
  const runRead = { readsOnly: true, keyScope: "run" as const };

  it("full admits everything", () => {
    for (const r of [read, change, invoke, ingest]) expect(missingScope(["full"], r)).toBeNull();
  });
  it("read admits only viewer routes", () => {
    expect(missingScope(["read"], read)).toBeNull();
    expect(missingScope(["read"], runRead)).toBeNull();
    expect(missingScope(["read"], change)).toBe("full");
    expect(missingScope(["read"], invoke)).toBe("run");
  });
  it("run and ingest admit their own routes only", () => {
    expect(missingScope(["run"], invoke)).toBeNull();
    expect(missingScope(["run"], runRead)).toBeNull();
    expect(missingScope(["run"], ingest)).toBe("ingest");
    expect(missingScope(["run"], read)).toBe("read");
    expect(missingScope(["ingest"], ingest)).toBeNull();
    expect(missingScope(["ingest"], invoke)).toBe("run");
    expect(missingScope(["run", "ingest"], ingest)).toBeNull();
  });
  it("the refusal names the missing scope", () => {
    expect(() => requireScope(["ingest"], invoke, "POST /x")).toThrow(
      "POST /x needs an API key with the run agents scope (or full); this key has: ingest traces",
    );
  });
});
