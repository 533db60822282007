import { wrapLanguageModel, type LanguageModel, type StopCondition, type ToolSet } from "ai";
import { logger } from "@/server/core/logger";
import { usageFromAiSdk, type TokenUsage } from "@/server/pricing";
import type { FallbackRoute } from "../providers";
import type { TurnInput } from "../run-types";

type ModelV3 = Extract<LanguageModel, { specificationVersion: "v3" }>;
type StreamPart = Awaited<ReturnType<ModelV3["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type FinishPart = Extract<StreamPart, { type: "finish" }>;

/** What a tool of a step that left a budget spent throws instead of running (the harness records no result). */
export class NotRunOnSpentBudget extends Error {
  constructor() {
    super("Not run: the model step that asked for this call left a budget of the turn spent.");
  }
}

/**
 * The turn's budgets, step by step (server/controls README, "Spend past the limit"). A model
 * step is costed as its reply finishes, from the provider's `finish` part, before that part
 * reaches the SDK, which runs the step's tools only once it has it. So a step that leaves a
 * budget spent runs none of its tools (they throw `NotRunOnSpentBudget`) and asks for no
 * approval; when it asked for tools, the turn ends there `budget_exceeded` (the loop would call
 * the model again). A final answer that crosses keeps its own stop reason: the turn ended anyway.
 * A failure to count is logged, never the turn's failure.
 */
export function budgetStop(input: TurnInput, route: FallbackRoute | undefined) {
  let answered = 0;
  let spent = false;
  let cutShort = false;
  const count = async (index: number, usage: TokenUsage): Promise<boolean> => {
    if (!input.controls) return false;
    const { provider, model, deployment } = route?.call(index)?.connection ?? input.connection;
    try {
      return await input.controls.stepEnded({ provider, model, deployment, usage });
    } catch (error) {
      logger.error({ err: error, projectId: input.projectId }, "counting a step's cost failed");
      return false;
    }
  };
  const onFinish = async (index: number, part: FinishPart, askedForTools: boolean) => {
    if (!(await count(index, usageFromAiSdk(sdkUsage(part.usage), part.providerMetadata)))) return;
    spent = true;
    if (askedForTools) cutShort = true;
  };
  const condition: StopCondition<ToolSet> = () => cutShort;
  return {
    condition,
    /** The turn's model, each reply costed as it finishes (a model step is one reply that came back). */
    model(inner: ModelV3): ModelV3 {
      if (!input.controls?.countsSpend) return inner;
      return wrapLanguageModel({
        model: inner,
        middleware: {
          specificationVersion: "v3",
          wrapStream: async ({ doStream }) => {
            const result = await doStream();
            const index = answered++;
            let askedForTools = false;
            return {
              ...result,
              stream: result.stream.pipeThrough(
                new TransformStream<StreamPart, StreamPart>({
                  async transform(part, controller) {
                    if (part.type === "tool-call") askedForTools = true;
                    if (part.type === "finish") await onFinish(index, part, askedForTools);
                    controller.enqueue(part);
                  },
                }),
              ),
            };
          },
        },
      });
    },
    /** The turn's tools, each refusing to run once a step has left a budget spent. */
    tools(toolSet: ToolSet): ToolSet {
      if (!input.controls?.countsSpend) return toolSet;
      return Object.fromEntries(
        Object.entries(toolSet).map(([name, tool]) => {
          const execute = tool.execute;
          if (!execute) return [name, tool];
          return [
            name,
            {
              ...tool,
              execute: (args: unknown, options: Parameters<typeof execute>[1]) => {
                if (spent) throw new NotRunOnSpentBudget();
                return execute.call(tool, args, options);
              },
            },
          ];
        }),
      ) as ToolSet;
    },
    /** The turn was cut short by a budget: a step that asked for tools left one spent. */
    stopped: () => cutShort,
  };
}

/** The provider's usage as the SDK reports a step's (`LanguageModelUsage`), which pricing reads. */
function sdkUsage(usage: FinishPart["usage"]) {
  return {
    inputTokens: usage.inputTokens.total,
    inputTokenDetails: { cacheReadTokens: usage.inputTokens.cacheRead, cacheWriteTokens: usage.inputTokens.cacheWrite },
    outputTokens: usage.outputTokens.total,
    outputTokenDetails: { reasoningTokens: usage.outputTokens.reasoning },
    raw: usage.raw,
  };
}
