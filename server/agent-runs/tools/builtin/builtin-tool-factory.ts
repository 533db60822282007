import { jsonSchema, tool } from "ai";
import { READ_ONLY_BUILTIN_TOOL_NAMES } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import type { ToolFactory } from "../tool-types";
import { BUILTIN_TOOLS } from "./builtin-tools";
import { capResult } from "../cap-result";

/**
 * `builtin` entries: the seven tools of the core and service harnesses, executed in the session's
 * sandbox. A call that may have changed files saves the workspace before its result is returned,
 * so the next turn (on any app process) sees the change.
 */
export const builtinToolFactory: ToolFactory = (entry, context) => {
  if (entry.type !== "builtin") throw new Error(`builtinToolFactory got a ${entry.type} entry`);
  const sandbox = context.sandbox;
  if (!sandbox)
    throw new BadRequestError(
      `tools: built-in "${entry.name}" needs a sandbox, and this run has none`,
      "unsupported_tool",
    );
  const definition = BUILTIN_TOOLS[entry.name];
  const maxBytes = context.resultMaxBytes ?? 64 * 1024;
  const run = (input: unknown, signal?: AbortSignal): Promise<string> =>
    sandbox.serial(async () => {
      const args = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
      try {
        return capResult(await definition.run(sandbox, args, signal), maxBytes);
      } finally {
        // A failed command may still have written files (bash `a > f; false`).
        if (definition.writes) await sandbox.persist();
      }
    });
  return {
    name: entry.name,
    kind: "server",
    readOnly: READ_ONLY_BUILTIN_TOOL_NAMES.includes(entry.name),
    builtin: true,
    run,
    render: entry.render ?? undefined,
    tool: tool({
      description:
        typeof definition.description === "function" ? definition.description(sandbox) : definition.description,
      inputSchema: jsonSchema(definition.inputSchema),
      execute: (input, { abortSignal }) => run(input, abortSignal),
    }),
  };
};
