import { z } from "zod";
import { closedObject } from "./closed-object";
import { mcpConnectionSchema } from "./mcp-connection";
import { mcpPolicySchema } from "./mcp-policy";

/** The runner's own tool server is advertised under this name; a user server must not shadow it. */
export const RESERVED_MCP_NAME = "agenta-tools";

export const mcpServerSchema = closedObject({
  name: z
    .string()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .regex(/^[A-Za-z0-9._-]+$/, 'may contain only letters, digits, ".", "_" and "-"')
    .refine(
      (name) => name !== RESERVED_MCP_NAME,
      `"${RESERVED_MCP_NAME}" is reserved for the service's own tool server; choose another name`,
    )
    .meta({ not: { const: RESERVED_MCP_NAME } })
    .describe(
      `Server name: 1 to 128 characters of letters, digits, ".", "_" and "-"; "${RESERVED_MCP_NAME}" is reserved.`,
    ),
  connection: mcpConnectionSchema,
  policy: mcpPolicySchema.prefault({}),
}).describe("One MCP server declaration.");

export type McpServer = z.output<typeof mcpServerSchema>;
