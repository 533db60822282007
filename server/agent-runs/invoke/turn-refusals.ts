import { sandboxRefusal, type AgentTemplate } from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { BadRequestError, ForbiddenError } from "@/server/core/errors";
import { harnessRefusal } from "../harnesses";

/** Refuses, before anything is opened, a template this deployment cannot run as declared. */
export function assertRunnable(template: AgentTemplate, config: Config): void {
  const refusal = sandboxRefusal(template.sandbox.kind, {
    SANDBOX_PROVIDERS: config.sandbox.providers,
    DAYTONA_API_KEY: config.sandbox.daytona?.apiKey,
  });
  if (refusal) throw new ForbiddenError(refusal, "sandbox_not_enabled");
  const harnessRefused = harnessRefusal(template.harness.kind, config);
  if (harnessRefused) throw new BadRequestError(harnessRefused, "harness_not_enabled");
  if (template.harness.kind !== "external_harness") return;
  // Claude Code's own tools run on this host: a run declaring the hosted sandbox would not be in it.
  if (template.sandbox.kind !== "local") {
    throw new BadRequestError(
      `sandbox.kind "${template.sandbox.kind}": the external harness (Claude Code) runs its tools on this host, not in a hosted sandbox; use sandbox.kind "local", or core_harness or service_harness`,
      "sandbox_not_supported",
    );
  }
  // Claude Code reads no session workspace: skills laid there would be dropped without a word.
  if (template.skills.length) {
    throw new BadRequestError(
      "skills: the external harness (Claude Code) does not load skills in this deployment; remove skills or use core_harness or service_harness",
      "skills_not_supported",
    );
  }
}
