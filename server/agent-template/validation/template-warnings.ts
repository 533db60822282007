import type { AgentTemplate } from "../template";

/**
 * Accepted-but-ineffective settings, reported so the person can clean them up. Each warning
 * names the path it is about. Computed on the parsed template, before builtin permissions drop.
 */
export function templateWarnings(template: AgentTemplate): string[] {
  const warnings: string[] = [];
  template.tools.forEach((tool, index) => {
    if (tool.type !== "builtin") return;
    if (tool.permission !== null) {
      warnings.push(
        `tools[${index}].permission is ignored on builtin tools: the harness runs its built-ins itself, so a per-tool permission cannot be enforced; it was dropped and runner.permissions.default applies`,
      );
    }
    if (template.harness.kind === "external_harness") {
      warnings.push(
        `tools[${index}] (builtin "${tool.name}") has no effect: harness.kind "external_harness" has no built-in tools`,
      );
    }
  });
  const network = template.sandbox.permissions?.network;
  if (network && network.mode !== "allowlist" && network.allowlist.length > 0) {
    warnings.push(
      `sandbox.permissions.network.allowlist is ignored: it applies only when network.mode is "allowlist" (mode is "${network.mode}")`,
    );
  }
  return warnings;
}
