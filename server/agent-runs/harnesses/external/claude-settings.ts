import type { AgentTemplate } from "@/server/agent-template";

/** The `.claude/settings.json` Claude Code reads from the session's working directory. */
export interface ClaudeSettings {
  permissions: { defaultMode?: string; allow: string[]; ask: string[]; deny: string[] };
}

/** `harness.permissions` as Claude Code's own settings file (the interface contract harness.permissions). */
export function claudeSettings(permissions: AgentTemplate["harness"]["permissions"]): ClaudeSettings {
  return {
    permissions: {
      ...(permissions.default_mode ? { defaultMode: permissions.default_mode } : {}),
      allow: [...permissions.allow],
      ask: [...permissions.ask],
      deny: [...permissions.deny],
    },
  };
}
