import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let caller: ReturnType<typeof createCaller>;
let viewer: ReturnType<typeof createCaller>;
let other: ReturnType<typeof createCaller>;
beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject();
  const q = await t.newProject();
  const as = (projectId: string, userId: string, role: "owner" | "viewer") =>
    createCaller(createContextFrom(t.context, { principal: { projectId, userId, role } }));
  caller = as(p.projectId, p.userId, "owner");
  viewer = as(p.projectId, p.userId, "viewer");
  other = as(q.projectId, q.userId, "owner");
});
afterAll(() => t.close());

type Row = { id: string; data: Record<string, unknown> };
const rowsOf = (revision: { data?: Record<string, unknown> }) => (revision.data?.testcases ?? []) as Row[];

describe("testsets through tRPC", () => {
  it("creates, lists with row counts, commits, logs and restores; unchanged rows keep their testcase ids", async () => {
    const created = await caller.testsets.create({
      name: "Capitals",
      testcases: [
        { input: "France?", correct_answer: "Paris" },
        { input: "Spain?", correct_answer: "Madrid" },
      ],
    });
    expect(created.revision.version).toBe("1");
    const first = rowsOf(created.revision);
    expect(first.map((r) => r.data.correct_answer)).toEqual(["Paris", "Madrid"]);

    const edited = await caller.testsets.commit({
      variantId: created.variant.id,
      testcases: [
        { input: "France?", correct_answer: "Paris" },
        { input: "Spain?", correct_answer: "Madrid, Spain" },
        { input: "Italy?", correct_answer: "Rome" },
      ],
      message: "Sharper answer, one more row",
    });
    expect(edited.version).toBe("2");
    expect(rowsOf(edited)[0].id).toBe(first[0].id);
    expect(rowsOf(edited)[1].id).not.toBe(first[1].id);

    const list = await caller.testsets.list({});
    expect(list.items).toEqual([
      expect.objectContaining({
        testset: expect.objectContaining({ name: "Capitals" }),
        latest: expect.objectContaining({ version: "2", rows: 3, message: "Sharper answer, one more row" }),
      }),
    ]);

    const history = await caller.testsets.history({ variantId: created.variant.id });
    expect(history.items.map((r) => [r.version, r.data])).toEqual([
      ["2", undefined],
      ["1", undefined],
    ]);

    const restored = await caller.testsets.restore({ revisionId: created.revision.id });
    expect(restored.version).toBe("3");
    expect(rowsOf(restored).map((r) => r.id)).toEqual(first.map((r) => r.id));
    const got = await caller.testsets.get({ id: created.testset.id });
    expect(got.revision?.version).toBe("3");
    expect((await caller.testsets.revision({ id: edited.id })).data).toEqual(edited.data);
  });

  it("appends rows from traffic as a new revision, keeping the rows it had", async () => {
    const created = await caller.testsets.create({ name: "From traffic", testcases: [{ input: "hi" }] });
    const appended = await caller.testsets.append({
      testsetId: created.testset.id,
      testcases: [
        { input: "a", correct_answer: "A" },
        { input: "b", correct_answer: "B" },
      ],
    });
    expect(appended.version).toBe("2");
    expect(appended.message).toBe("Add 2 testcases");
    expect(rowsOf(appended).map((r) => r.data.input)).toEqual(["hi", "a", "b"]);
    // Two appends at once both land (the variant is locked before its head is read).
    await Promise.all([
      caller.testsets.append({ testsetId: created.testset.id, testcases: [{ input: "c" }] }),
      caller.testsets.append({ testsetId: created.testset.id, testcases: [{ input: "d" }] }),
    ]);
    const head = await caller.testsets.get({ id: created.testset.id });
    expect(
      rowsOf(head.revision!)
        .map((r) => r.data.input)
        .sort(),
    ).toEqual(["a", "b", "c", "d", "hi"]);
  });

  it("keeps the editor's column order, which a row's keys lose in JSONB, through append and restore", async () => {
    const created = await caller.testsets.create({
      name: "Ordered",
      testcases: [{ zeta: "1", alpha_long_name: "2", mid: "3" }],
      columns: ["zeta", "alpha_long_name", "mid"],
    });
    const appended = await caller.testsets.append({ testsetId: created.testset.id, testcases: [{ zeta: "4" }] });
    expect(appended.data?.columns).toEqual(["zeta", "alpha_long_name", "mid"]);
    const restored = await caller.testsets.restore({ revisionId: created.revision.id });
    expect(restored.data?.columns).toEqual(["zeta", "alpha_long_name", "mid"]);
  });

  it("refuses bad input with 4xx codes, viewers' changes and other projects' testsets", async () => {
    const created = await caller.testsets.create({ name: "Guarded" });
    expect(created.revision.data).toEqual({ testcases: [] });
    await expect(caller.testsets.create({ name: "  " })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(caller.testsets.append({ testsetId: created.testset.id, testcases: [] })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    await expect(
      caller.testsets.commit({ variantId: created.variant.id, testcases: ["x" as never] }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(viewer.testsets.create({ name: "Nope" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(other.testsets.get({ id: created.testset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      other.testsets.append({ testsetId: created.testset.id, testcases: [{ input: "x" }] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("commits and reads back a testset of 10,000 rows", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ input: `question ${i}`, correct_answer: `answer ${i}` }));
    const started = performance.now();
    const created = await caller.testsets.create({ name: "Large", testcases: rows });
    const edited = rows.map((r, i) => (i === 5_000 ? { ...r, correct_answer: "changed" } : r));
    const committed = await caller.testsets.commit({ variantId: created.variant.id, testcases: edited });
    const read = await caller.testsets.revision({ id: committed.id });
    const elapsed = performance.now() - started;
    expect(rowsOf(read)).toHaveLength(10_000);
    expect(rowsOf(read)[5_000].data.correct_answer).toBe("changed");
    expect((await caller.testsets.list({ search: "Large" })).items[0].latest?.rows).toBe(10_000);
    console.info(`testsets: create + commit + read of 10,000 rows took ${Math.round(elapsed)} ms`);
  }, 120_000);
});
