import { describe, expect, it } from "vitest";
import { assignedScenarios } from "./assignment";

const ids = Array.from({ length: 6 }, (_, i) => `01a20dea-a7f9-75a3-82a6-6b784c4f37${String(i).padStart(2, "0")}`);

describe("queue assignment", () => {
  it("sequential: contiguous blocks of (offset + index) mod batch size, one block per user of the lane", () => {
    const lanes = [["u1", "u2"]];
    const u1 = assignedScenarios(ids, lanes, "u1", { sequential: true, batchSize: 6 });
    const u2 = assignedScenarios(ids, lanes, "u2", { sequential: true, batchSize: 6 });
    expect(u1).toEqual(ids.slice(0, 3));
    expect(u2).toEqual(ids.slice(3));
    expect(assignedScenarios(ids, lanes, "u1", { sequential: true, batchSize: 6, batchOffset: 3 })).toEqual(
      ids.slice(3),
    );
  });
  it("by hash: every scenario goes to exactly one user of a lane; a user in no lane gets nothing", () => {
    const lanes = [["a", "b", "c"]];
    const shares = ["a", "b", "c"].map((u) => assignedScenarios(ids, lanes, u, { sequential: false }));
    expect(shares.flat().sort()).toEqual([...ids].sort());
    expect(assignedScenarios(ids, lanes, "z", { sequential: false })).toEqual([]);
  });
});
