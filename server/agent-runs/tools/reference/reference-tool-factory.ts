import { jsonSchema, tool, type JSONSchema7 } from "ai";
import type { ToolEntry } from "@/server/agent-template";
import { AppError, BadRequestError } from "@/server/core/errors";
import { workflowsSpec } from "@/server/domains";
import type { BatchOutputs } from "@/server/streams";
import { retrieveRevision, type RevisionRecord } from "@/server/versioning";
import { toolSpanId } from "../../tool-span-id";
import type { RunScope, ToolFactory } from "../tool-types";
import { nestedMessages } from "./nested-messages";

type ReferenceEntry = Extract<ToolEntry, { type: "reference" }>;

/**
 * `reference` entries: another workflow revision run as a nested batch turn through the invoke
 * path, in the caller's project, with the model's arguments as its inputs; its final answer is the
 * tool result. The revision is resolved when the tool is built (latest or pinned version of the
 * workflow's default variant, or what an environment runs), so a missing one refuses the run before
 * it starts and every call of the turn runs the same revision.
 */
export const referenceToolFactory: ToolFactory = async (entry, context) => {
  if (entry.type !== "reference") throw new Error(`referenceToolFactory got a ${entry.type} entry`);
  const name = entry.name ?? entry.slug;
  const scope = context.run;
  if (!scope)
    throw new BadRequestError(
      `tools: reference tool "${name}" needs a run scope, and this run has none`,
      "unsupported_tool",
    );
  const revision = await referencedRevision(scope, entry, name);
  const maxDepth = scope.app.config.agentRuns.referenceMaxDepth;

  const run = async (input: unknown, signal?: AbortSignal, toolCallId?: string): Promise<unknown> => {
    if (scope.depth + 1 > maxDepth) {
      throw new Error(
        `reference tool "${name}" was not run: nested runs stop at depth ${maxDepth} (AGENT_REFERENCE_MAX_DEPTH), and this call would run "${entry.slug}" at depth ${scope.depth + 1}`,
      );
    }
    const outputs = await scope.runNested({
      revisionId: revision.id,
      messages: nestedMessages(input),
      parentSpanId: toolSpanId(scope.traceId, toolCallId ?? ""),
      signal,
    });
    return finalAnswer(outputs, name);
  };

  return {
    name,
    kind: "server",
    run,
    render: entry.render ?? undefined,
    tool: tool({
      description: entry.description ?? `Runs the workflow "${entry.slug}" and returns its answer.`,
      inputSchema: jsonSchema(entry.input_schema as JSONSchema7),
      execute: (input, { abortSignal, toolCallId }) => run(input, abortSignal, toolCallId),
    }),
  };
};

function describe(entry: ReferenceEntry): string {
  if (entry.ref_by === "environment")
    return `workflow "${entry.slug}" as deployed to environment "${entry.environment}"`;
  return entry.version === null
    ? `the latest revision of workflow "${entry.slug}"`
    : `version ${entry.version} of workflow "${entry.slug}"`;
}

async function referencedRevision(scope: RunScope, entry: ReferenceEntry, name: string): Promise<RevisionRecord> {
  const refs =
    entry.ref_by === "environment"
      ? { artifact: { slug: entry.slug }, environment: { slug: entry.environment! } }
      : { artifact: { slug: entry.slug }, ...(entry.version === null ? {} : { revision: { version: entry.version } }) };
  let revision: RevisionRecord;
  try {
    ({ revision } = await retrieveRevision(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      workflowsSpec,
      refs,
    ));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new BadRequestError(
      `tools: reference tool "${name}" names ${describe(entry)}, which this project cannot resolve: ${error.message}`,
      "reference_not_found",
    );
  }
  if ((revision.data?.parameters as Record<string, unknown> | undefined)?.agent === undefined) {
    throw new BadRequestError(
      `tools: reference tool "${name}" names ${describe(entry)}, whose revision ${revision.id} has no data.parameters.agent; only agents run as tools`,
      "reference_not_runnable",
    );
  }
  return revision;
}

/** The nested turn's last assistant text; a failed or paused nested turn is a tool error. */
function finalAnswer(outputs: BatchOutputs, name: string): string {
  if (outputs.errors?.length) throw new Error(`the workflow behind "${name}" failed: ${outputs.errors.join("; ")}`);
  if (outputs.stop_reason === "paused") {
    throw new Error(
      `the workflow behind "${name}" paused for ${outputs.pending_interaction?.kind ?? "an interaction"}; a nested run has no one to answer it`,
    );
  }
  const answer = outputs.messages
    .filter((m) => m.role === "assistant" && typeof m.content === "string" && m.content !== "")
    .at(-1);
  if (!answer) throw new Error(`the workflow behind "${name}" produced no answer`);
  return answer.content as string;
}
