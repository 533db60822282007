import { z } from "zod";
import type { NativeEvent } from "@/server/streams";
import type { RunScope } from "../tool-types";

/**
 * One operation of this service exposed as a `platform` tool. The catalog owns its description,
 * the endpoint whose server function it calls, and the model-visible argument schema; `bound`
 * names what the run context fills in (the model cannot set those: its arguments are parsed with
 * the schema, which does not have them, and the operation reads them from the scope only).
 */
export interface PlatformOperation<Args extends z.ZodType = z.ZodType> {
  op: string;
  description: string;
  /** The REST endpoint that calls the same server function. */
  endpoint: string;
  args: Args;
  readOnly: boolean;
  /** Arguments taken from the run, never from the model. */
  bound: Array<"project_id" | "workflow_variant_id" | "user_id">;
  /** Only offered when the run can use it (commit needs the agent's own variant). */
  availableIn?: (scope: RunScope) => string | undefined;
  run: (scope: RunScope, args: z.output<Args>) => Promise<unknown>;
  resultEvents?: (output: unknown) => NativeEvent[];
}

export function platformOperation<Args extends z.ZodType>(operation: PlatformOperation<Args>): PlatformOperation {
  return operation as unknown as PlatformOperation;
}

/** The schema of what the catalog endpoint serves for one operation. */
export const operationWire = z.strictObject({
  op: z.string(),
  description: z.string(),
  endpoint: z.string(),
  read_only: z.boolean(),
  bound_from_run: z.array(z.enum(["project_id", "workflow_variant_id", "user_id"])),
  input_schema: z.record(z.string(), z.unknown()),
});

/** What the catalog endpoint serves for one operation. */
export function operationToWire(operation: PlatformOperation) {
  return {
    op: operation.op,
    description: operation.description,
    endpoint: operation.endpoint,
    read_only: operation.readOnly,
    bound_from_run: operation.bound,
    input_schema: operationInputSchema(operation),
  };
}

export function operationInputSchema(operation: PlatformOperation): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(operation.args, {
    target: "draft-7",
    io: "input",
    unrepresentable: "any",
  });
  return schema;
}
