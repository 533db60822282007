import type { HarnessKind } from "@/server/agents";
import { BadRequestError } from "@/server/core/errors";
import type { Harness } from "../run-types";
import { coreHarness } from "./core-harness";

export { coreHarness } from "./core-harness";
export { CORE_BASE_PROMPT, systemPrompt } from "./system-prompt";

/** The service harness runs the core engine for now; the external harness is a later issue. */
export function harnessFor(kind: HarnessKind): Harness {
  if (kind === "core_harness" || kind === "service_harness") return coreHarness;
  throw new BadRequestError(`harness.kind "${kind}" is not available in this deployment; use core_harness or service_harness`, "unsupported_harness");
}
