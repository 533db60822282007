import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { isAppError } from "@/server/core/errors";
import { exposedEntry, exposedNow, type ExposedTarget } from "@/server/exposure";
import { callAgentTool, type AgentToolResult, type ApprovalDecision } from "./call-agent-tool";
import { requireMcpAccess } from "./door-permissions";
import { deployedPrompt, promptArguments, renderPrompt } from "./exposed-prompt";
import type { McpSession } from "./mcp-session";
import { deployedResource, resourceUri, resourceOf } from "./revision-resource";
import { TOOL_INPUT_SCHEMA, TOOL_OUTPUT_SCHEMA, toolArguments } from "./tool-input";

export const SERVER_INFO = { name: "agent-service", version: "1.0.0" };

/**
 * One JSON Schema validator for every request's server: the SDK would otherwise build a fresh Ajv
 * (with its formats) in each `Server`, the largest part of the door's own time per call.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** What an elicitation for an approval asks: one choice. */
const APPROVAL_SCHEMA = {
  type: "object" as const,
  properties: {
    decision: {
      type: "string" as const,
      title: "Decision",
      description: "approve: the agent makes the call; deny: it does not, and is told so",
      enum: ["approve", "deny"],
    },
  },
  required: ["decision"],
};

/** How long a person has to answer in the client; past it the call answers with the playground link. */
const ELICITATION_TIMEOUT_MS = 10 * 60_000;

export interface DoorRequest {
  app: AppContext;
  principal: Principal;
  request: Request;
  session?: McpSession;
  baseUrl: string;
  /** Registers a tool call so a cancellation sent to any instance reaches it; none without a session. */
  cancellable(requestId: string | number, signal: AbortSignal): { signal: AbortSignal; release(): void } | undefined;
}

/**
 * A fresh MCP server for one HTTP request (stateless: nothing outlives the request but the
 * database). Its lists are read from what the project exposes and runs now (server/exposure).
 */
export function createMcpServer(door: DoorRequest): Server {
  const { app, principal } = door;
  const scope = { projectId: principal.projectId, userId: principal.userId };
  const server = new Server(SERVER_INFO, {
    jsonSchemaValidator: SCHEMA_VALIDATOR,
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    },
    instructions:
      "Each tool is an agent deployed in this project (its name: <agent>@<environment> or the owner's). Send `message`; send back `session_id` to continue in the same agent session (its workspace); each message should carry the context it needs.",
  });
  const exposed = async (kind: ExposedTarget["kind"]) =>
    (await exposedNow(app.db, scope)).filter((target) => target.kind === kind);
  const find = async (kind: ExposedTarget["kind"], name: string, what: string) => {
    const target = (await exposed(kind)).find((candidate) => candidate.name === name);
    if (!target) throw notExposed(name, what);
    return target;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    requireMcpAccess(principal, "list", "tools/list");
    return {
      tools: (await exposed("agent")).map((target) => ({
        name: target.name,
        title: target.title,
        description:
          target.description ?? `The agent ${target.slug} as ${target.environment} runs it (v${target.version})`,
        inputSchema: TOOL_INPUT_SCHEMA,
        outputSchema: TOOL_OUTPUT_SCHEMA,
        annotations: { readOnlyHint: false, openWorldHint: true },
      })),
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    requireMcpAccess(principal, "call", "tools/call");
    // The exposure row alone: the call's turn resolves what the environment runs (and refuses when it runs nothing).
    const target = await exposedEntry(app.db, principal.projectId, "agent", request.params.name);
    if (!target) throw notExposed(request.params.name, "tool");
    const parsed = toolArguments.safeParse(request.params.arguments ?? {});
    if (!parsed.success)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Arguments of ${target.name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")}`,
      );
    const progressToken = extra._meta?.progressToken;
    const call = door.cancellable(extra.requestId, extra.signal);
    const context = {
      mcpSessionId: door.session?.id,
      traceparent: door.request.headers.get("traceparent"),
      signal: call?.signal ?? extra.signal,
      progress: (step: number, message: string) => {
        if (progressToken === undefined) return;
        void extra
          .sendNotification({ method: "notifications/progress", params: { progressToken, progress: step, message } })
          .catch(() => undefined);
      },
      // Only a client that declared elicitation is asked; any other gets the playground link.
      elicit: door.session?.elicitation
        ? async (question: string): Promise<ApprovalDecision | undefined> => {
            const answer = await extra
              .sendRequest(
                { method: "elicitation/create", params: { message: question, requestedSchema: APPROVAL_SCHEMA } },
                ElicitResultSchema,
                { timeout: ELICITATION_TIMEOUT_MS, signal: call?.signal ?? extra.signal },
              )
              .catch(() => undefined);
            if (answer?.action === "decline") return "deny";
            if (answer?.action !== "accept") return undefined;
            return answer.content?.decision === "approve" ? "approve" : "deny";
          }
        : undefined,
    };
    try {
      return toolResult(await callAgentTool(app, principal, target, parsed.data, context), door);
    } catch (error) {
      // Refusals before the run (budget, rate limit, allowlist, a bad session) are the tool's errors: the model reads them.
      if (isAppError(error) && error.status < 500)
        return { isError: true, content: [{ type: "text", text: `${error.code}: ${error.message}` }] };
      throw error;
    } finally {
      call?.release();
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    requireMcpAccess(principal, "list", "prompts/list");
    const prompts = [];
    for (const target of await exposed("prompt")) {
      const prompt = await deployedPrompt(app.db, scope, target);
      if (!prompt) continue;
      prompts.push({
        name: target.name,
        title: target.title,
        description:
          target.description ?? `The prompt ${target.slug} as ${target.environment} runs it (v${target.version})`,
        arguments: promptArguments(prompt).map((name) => ({ name, required: true })),
      });
    }
    return { prompts };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    requireMcpAccess(principal, "list", "prompts/get");
    const target = await find("prompt", request.params.name, "prompt");
    const prompt = await deployedPrompt(app.db, scope, target);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Prompt "${target.name}" has no messages to render`);
    try {
      return {
        description: target.description ?? undefined,
        messages: renderPrompt(prompt, request.params.arguments ?? {}, target.name),
      };
    } catch (error) {
      if (isAppError(error) && error.status === 400)
        throw new McpError(ErrorCode.InvalidParams, error.message, { code: error.code });
      throw error;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    requireMcpAccess(principal, "list", "resources/list");
    return { resources: (await exposedNow(app.db, scope)).map(resourceOf) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    requireMcpAccess(principal, "list", "resources/read");
    const target = (await exposedNow(app.db, scope)).find((t) => resourceUri(t) === request.params.uri);
    if (!target)
      throw new McpError(
        -32002,
        `No resource ${request.params.uri}: resources/list names the deployed revisions this project exposes`,
      );
    return { contents: [await deployedResource(app.db, scope, target)] };
  });

  return server;
}

const notExposed = (name: string, what: string) =>
  new McpError(
    ErrorCode.InvalidParams,
    `No ${what} "${name}" is exposed by this project; list them with ${what}s/list`,
  );

function toolResult(result: AgentToolResult, door: DoorRequest): CallToolResult {
  const { approval, error, runsPage, ...output } = result;
  if (result.status === "needs_approval") {
    const url = `${door.baseUrl}${runsPage}?run=${result.run_id}`;
    return {
      content: [
        {
          type: "text",
          text: `The agent paused: its call of ${approval?.tool ?? "a tool"} needs approval. Approve it at ${url} (run ${result.run_id}), then call again with session_id "${result.session_id}".`,
        },
      ],
      structuredContent: { ...output, approval_url: url },
    };
  }
  const text = result.status === "finished" ? result.text : `${result.status}: ${error ?? result.text}`;
  return {
    isError: result.status !== "finished",
    content: [{ type: "text", text }],
    structuredContent: output,
  };
}
