import type { HarnessKind } from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { BadRequestError } from "@/server/core/errors";
import type { Harness } from "../run-types";
import { coreHarness } from "./core-harness";
import { externalHarness } from "./external";

export { coreHarness } from "./core-harness";
export { externalSessions, resolveClaudeConnection, serviceToolRules } from "./external";
export { GETTING_STARTED_SKILL } from "./getting-started-skill";
export { withHarnessBuiltins } from "./harness-builtins";
export { CORE_BASE_PROMPT, SERVICE_BASE_PROMPT, systemPrompt } from "./system-prompt";

/** Why this deployment refuses a harness before the run, or null when it runs it. */
export function harnessRefusal(kind: HarnessKind, config: Pick<Config, "externalHarness">): string | null {
  if (kind !== "external_harness" || config.externalHarness.enabled) return null;
  return 'harness.kind "external_harness" runs Claude Code as a process on this host and is not enabled in this deployment; the operator enables it with EXTERNAL_HARNESS=enabled';
}

/**
 * The service harness runs the core engine (its base prompt, skill and platform tools come from
 * the template through withHarnessBuiltins); the external harness runs Claude Code.
 */
export function harnessFor(kind: HarnessKind, config: Config): Harness {
  const refusal = harnessRefusal(kind, config);
  if (refusal) throw new BadRequestError(refusal, "harness_not_enabled");
  return kind === "external_harness" ? externalHarness(config) : coreHarness;
}
