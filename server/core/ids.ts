import { v7 as uuidv7 } from "uuid";

/** Every row id is a UUIDv7: time-ordered, so ids sort by creation and index well. */
export function newId(): string {
  return uuidv7();
}
