import { jsonSchema, tool, type JSONSchema7 } from "ai";
import { BadRequestError } from "@/server/core/errors";
import { capOutput } from "../cap-result";
import type { ToolFactory } from "../tool-types";
import { findPlatformOperation, PLATFORM_OPERATIONS } from "./platform-catalog";
import { operationInputSchema } from "./platform-operation";

/**
 * `platform` entries: an operation of this service, calling the same server function as its REST
 * endpoint, in the caller's project as the caller. The model's arguments are parsed with the
 * operation's schema, which leaves out what the run binds (project, the agent's own variant), so
 * a model that sends those anyway gets the run's values.
 */
export const platformToolFactory: ToolFactory = (entry, context) => {
  if (entry.type !== "platform") throw new Error(`platformToolFactory got a ${entry.type} entry`);
  const operation = findPlatformOperation(entry.op);
  if (!operation) {
    throw new BadRequestError(
      `tools: platform tool "${entry.op}" is not an operation of this service; known: ${PLATFORM_OPERATIONS.map((o) => o.op).join(", ")}`,
      "unknown_platform_op",
    );
  }
  const scope = context.run;
  if (!scope)
    throw new BadRequestError(
      `tools: platform tool "${entry.op}" needs a run scope, and this run has none`,
      "unsupported_tool",
    );
  const unavailable = operation.availableIn?.(scope);
  if (unavailable)
    throw new BadRequestError(`tools: platform tool "${entry.op}" cannot run here: ${unavailable}`, "unsupported_tool");
  const maxBytes = context.resultMaxBytes ?? 64 * 1024;

  const run = async (input: unknown): Promise<unknown> => {
    const parsed = operation.args.safeParse(input ?? {});
    if (!parsed.success)
      throw new Error(
        `arguments of ${entry.op}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
      );
    return capOutput(await operation.run(scope, parsed.data), maxBytes);
  };

  return {
    name: entry.op,
    kind: "server",
    readOnly: operation.readOnly,
    run,
    resultEvents: operation.resultEvents,
    render: entry.render ?? undefined,
    tool: tool({
      description: operation.description,
      inputSchema: jsonSchema(operationInputSchema(operation) as JSONSchema7),
      execute: (input) => run(input),
    }),
  };
};
