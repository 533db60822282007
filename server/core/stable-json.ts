import { createHash } from "node:crypto";
import { stableStringify } from "@/shared/stable-json";

export { stableStringify };

export function contentHash(value: unknown): string {
  return createHash("sha256").update(stableStringify(value)).digest("hex");
}
