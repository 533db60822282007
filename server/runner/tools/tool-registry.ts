import type { Tool } from "ai";
import type { ToolEntry, ToolType } from "@/server/agents";
import { BadRequestError } from "@/server/core/errors";

/** Where a tool runs: `client` tools pause the turn for the caller; `server` tools execute here. */
export type ToolKind = "client" | "server";

export interface RegisteredTool {
  name: string;
  kind: ToolKind;
  /** The AI SDK tool; a client tool has no `execute`, so the loop stops at its call. */
  tool: Tool;
  render?: unknown;
}

export interface ToolBuildContext {
  projectId: string;
  sessionId: string;
}

export type ToolFactory = (entry: ToolEntry, context: ToolBuildContext) => RegisteredTool | Promise<RegisteredTool>;

export interface BuiltTools {
  byName: Map<string, RegisteredTool>;
  toolSet: Record<string, Tool>;
}

/**
 * The one seam through which tool types plug into a run. The stream code only sees tool_call,
 * tool_result and interaction_request events, so a new type (builtins, MCP, skills) registers a
 * factory here and nothing else changes.
 */
export class ToolRegistry {
  private readonly factories = new Map<ToolType, ToolFactory>();

  register(type: ToolType, factory: ToolFactory): this {
    this.factories.set(type, factory);
    return this;
  }

  /** Builds every entry before the run starts, so a refusal is a 400, not a stream error. */
  async build(entries: ToolEntry[], context: ToolBuildContext): Promise<BuiltTools> {
    const byName = new Map<string, RegisteredTool>();
    for (const [index, entry] of entries.entries()) {
      const factory = this.factories.get(entry.type);
      if (!factory) {
        throw new BadRequestError(
          `tools[${index}]: tools of type "${entry.type}" are not available in this deployment; supported: ${[...this.factories.keys()].join(", ")}`,
          "unsupported_tool",
        );
      }
      const built = await factory(entry, context);
      if (byName.has(built.name)) throw new BadRequestError(`tools[${index}]: a tool named "${built.name}" is already declared`, "duplicate_tool");
      byName.set(built.name, built);
    }
    return { byName, toolSet: Object.fromEntries([...byName].map(([name, registered]) => [name, registered.tool])) };
  }
}
