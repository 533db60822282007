import { expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { idFloor } from "./events-since";

it("idFloor orders with UUIDv7 ids by their millisecond", () => {
  const start = Date.now();
  const id = newId();
  expect(idFloor(start - 1) <= id).toBe(true);
  expect(id < idFloor(Date.now() + 1_000)).toBe(true);
  expect(idFloor(0)).toBe("00000000-0000-0000-0000-000000000000");
});
