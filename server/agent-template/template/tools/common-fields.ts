import { z } from "zod";
import { toolPermissionField } from "../permission";

/** Fields every tool entry accepts, whatever its type. */
export const toolCommonFields = {
  permission: toolPermissionField(
    "Per-tool override of runner.permissions.default; null inherits it. Ignored (dropped with a warning) on builtin entries.",
  ),
  render: z.record(z.string(), z.unknown()).nullable().default(null).describe("Display hint passed to the client."),
};

/** JSON Schema of a tool's arguments; a fresh empty object schema when omitted. */
export function inputSchemaField() {
  return z
    .record(z.string(), z.unknown())
    .default(() => ({ type: "object", properties: {} }))
    .describe("JSON Schema of the arguments.");
}

export function descriptionField() {
  return z.string().nullable().default(null).describe("Description shown to the model.");
}
