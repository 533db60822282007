/** Tools the core and service harnesses provide. The external harness has none. */
export const BUILTIN_TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Read-hinted built-ins: `runner.permissions.default: allow_reads` runs these without asking. */
export const READ_ONLY_BUILTIN_TOOL_NAMES: readonly BuiltinToolName[] = ["read", "grep", "find", "ls"];
