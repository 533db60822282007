import { z } from "zod";
import { closedObject } from "./closed-object";
import { fieldsParsed } from "./fields-parsed";
import { toolPermissionField } from "./permission";
import { nonEmptyText } from "./text";

const MCP_TOOL_MODES = ["all", "include"] as const;

const mcpToolSelectionSchema = closedObject({
  mode: z
    .enum(MCP_TOOL_MODES)
    .default("all")
    .describe("`all` exposes every tool the server advertises; `include` exposes only `names`."),
  names: z.array(nonEmptyText()).default([]).describe("Tools to expose; required with `include`, rejected with `all`."),
})
  .superRefine(
    (tools, ctx) => {
      if (tools.mode === "include" && tools.names.length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["names"],
          message: 'must list at least one tool when tools.mode is "include"',
        });
      }
      if (tools.mode === "all" && tools.names.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["names"],
          message: 'is only valid with tools.mode "include"; remove it or set tools.mode to "include"',
        });
      }
    },
    { when: fieldsParsed("mode", "names") },
  )
  .meta({
    if: { type: "object", properties: { mode: { const: "include" } }, required: ["mode"] },
    then: { required: ["names"], properties: { names: { type: "array", minItems: 1 } } },
    else: { properties: { names: { type: "array", maxItems: 0 } } },
  });

export const mcpPolicySchema = closedObject({
  tools: mcpToolSelectionSchema.prefault({}).describe("Which of the server's tools are exposed."),
  permission: toolPermissionField("Applied to this server's tools; null inherits runner.permissions.default."),
}).describe("Which tools are exposed and at what permission.");
