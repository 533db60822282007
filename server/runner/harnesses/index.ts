import type { HarnessKind } from "@/server/agents";
import { BadRequestError } from "@/server/core/errors";
import type { Harness } from "../run-types";
import { coreHarness } from "./core-harness";

export { coreHarness } from "./core-harness";
export { GETTING_STARTED_SKILL } from "./getting-started-skill";
export { withHarnessBuiltins } from "./harness-builtins";
export { CORE_BASE_PROMPT, SERVICE_BASE_PROMPT, systemPrompt } from "./system-prompt";

/** The service harness is the core engine; its base prompt, skill and platform tools come from the template (withHarnessBuiltins). */
export function harnessFor(kind: HarnessKind): Harness {
  if (kind === "core_harness" || kind === "service_harness") return coreHarness;
  throw new BadRequestError(`harness.kind "${kind}" is not available in this deployment; use core_harness or service_harness`, "unsupported_harness");
}
