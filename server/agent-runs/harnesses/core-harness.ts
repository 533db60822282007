import { stepCountIs, streamText, type LanguageModel, type TextStreamPart, type ToolSet } from "ai";
import { usageFromAiSdk } from "@/server/pricing";
import { toFinishReason } from "@/server/streams";
import { approvalRequest, resumeApprovals } from "../permissions";
import { fallbackModel, languageModel, type FallbackRoute } from "../providers";
import { aliasErrorMessage } from "../alias-error-message";
import { runErrorMessage } from "../run-error-message";
import type { Emit, Harness, HarnessOutcome, StepTiming, TurnInput } from "../run-types";
import { systemPromptParts } from "../providers/system-messages";
import { toModelMessages } from "../to-model-messages";
import { budgetStop, NotRunOnSpentBudget } from "./budget-stop";
import { callSettings, providerOptions } from "./provider-options";
import { systemPrompt } from "./system-prompt";

/**
 * The core harness: the AI SDK v6 `streamText` multi-step loop. Provider block ids are renumbered
 * into monotonic `msg-N` / `reason-N` ids, a tool call is announced when its input starts and
 * refreshed when the arguments are complete, and a client tool call left without a result pauses
 * the turn with an `interaction_request`.
 */
export const coreHarness: Harness = {
  async run(input: TurnInput, emit: Emit, signal: AbortSignal): Promise<HarnessOutcome> {
    for (const notice of input.notices ?? []) emit(notice);
    const resumed = await resumeApprovals(input.messages, input.tools, emit, signal);
    if (resumed.paused) return { stopReason: "paused", steps: resumed.steps, messages: resumed.messages };
    const { model, optionsKey } = languageModel(input.connection);
    const route = aliasRoute(input);
    const budget = budgetStop(input, route);
    const extras = { ...input.connection.extras, ...(input.template.llm.extras as Record<string, unknown>) };
    const result = streamText({
      model: budget.model((route?.model ?? model) as Extract<LanguageModel, { specificationVersion: "v3" }>),
      ...systemPromptParts(
        systemPrompt(input.template, lastUserText(input.messages)),
        toModelMessages(resumed.messages),
      ),
      tools: budget.tools(input.tools.toolSet as ToolSet),
      stopWhen: [stepCountIs(input.limits.maxSteps), budget.condition],
      maxRetries: input.limits.maxRetries,
      ...input.sampling,
      abortSignal: signal,
      // The default handler console.logs the provider's error, whose body can echo the key;
      // errors reach the stream through the `error` part instead.
      onError: () => {},
      ...callSettings(extras),
      providerOptions: providerOptions(optionsKey, extras),
    });

    const blocks = new BlockIds();
    const steps: StepTiming[] = resumed.steps;
    const calls = new Map<string, { name: string; input: unknown; answered: boolean }>();
    const needApproval: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    let stopReason: string | undefined;
    let usage: HarnessOutcome["usage"];
    let failure: unknown;
    let aborted = false;

    const firstModelStep = steps.length;
    for await (const part of result.fullStream as AsyncIterable<TextStreamPart<ToolSet>>) {
      const step = steps.length;
      switch (part.type) {
        case "start-step":
          steps.push({ index: step, startedAt: Date.now(), toolCalls: [] });
          break;
        case "finish-step": {
          const current = steps.at(-1);
          if (current) {
            Object.assign(current, { endedAt: Date.now(), finishReason: stopReasonOf(part) });
            current.usage = usageFromAiSdk(part.usage, part.providerMetadata);
            const call = route?.call(current.index - firstModelStep);
            if (call)
              Object.assign(current, {
                provider: call.connection.provider,
                model: call.connection.model,
                attempts: call.attempts,
              });
          }
          break;
        }
        case "text-start":
          emit({ type: "message_start", id: blocks.open("msg", step, part.id) });
          break;
        case "text-delta": {
          if (!part.text) break;
          emit({ type: "message_delta", id: blocks.get("msg", step, part.id), delta: part.text });
          const current = steps.at(-1);
          if (current) current.text = (current.text ?? "") + part.text;
          break;
        }
        case "text-end":
          emit({ type: "message_end", id: blocks.get("msg", step, part.id) });
          break;
        case "reasoning-start":
          emit({ type: "thought_start", id: blocks.open("reason", step, part.id) });
          break;
        case "reasoning-delta":
          if (part.text) emit({ type: "thought_delta", id: blocks.get("reason", step, part.id), delta: part.text });
          break;
        case "reasoning-end":
          emit({ type: "thought_end", id: blocks.get("reason", step, part.id) });
          break;
        case "tool-input-start":
          calls.set(part.id, { name: part.toolName, input: {}, answered: false });
          emit({ type: "tool_call", id: part.id, name: part.toolName, input: {}, ...render(input, part.toolName) });
          break;
        case "tool-call":
          calls.set(part.toolCallId, { name: part.toolName, input: part.input, answered: false });
          steps
            .at(-1)
            ?.toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input, startedAt: Date.now() });
          emit({
            type: "tool_call",
            id: part.toolCallId,
            name: part.toolName,
            input: part.input,
            ...render(input, part.toolName),
          });
          break;
        case "tool-result":
        case "tool-error": {
          // Not run (its step left a budget spent): no result, no span; the history leaves the call out.
          if (part.type === "tool-error" && part.error instanceof NotRunOnSpentBudget) break;
          const call = calls.get(part.toolCallId);
          if (call) call.answered = true;
          const timing = steps.at(-1)?.toolCalls.find((t) => t.id === part.toolCallId);
          if (timing)
            Object.assign(timing, {
              endedAt: Date.now(),
              isError: part.type === "tool-error",
              output: part.type === "tool-result" ? part.output : String(part.error),
            });
          if (part.type === "tool-result") {
            emit({ type: "tool_result", id: part.toolCallId, output: part.output, isError: false });
            for (const event of input.tools.byName.get(part.toolName)?.resultEvents?.(part.output) ?? []) emit(event);
          } else {
            emit({ type: "tool_result", id: part.toolCallId, output: String(part.error), isError: true });
          }
          break;
        }
        case "tool-approval-request":
          needApproval.push({
            toolCallId: part.toolCall.toolCallId,
            toolName: part.toolCall.toolName,
            input: part.toolCall.input,
          });
          break;
        case "finish":
          stopReason = stopReasonOf(part);
          usage = {
            input: part.totalUsage.inputTokens ?? 0,
            output: part.totalUsage.outputTokens ?? 0,
            total:
              part.totalUsage.totalTokens ?? (part.totalUsage.inputTokens ?? 0) + (part.totalUsage.outputTokens ?? 0),
          };
          break;
        case "error":
          failure ??= part.error;
          break;
        case "abort":
          aborted = true;
          break;
        default:
          break;
      }
    }

    if (route && failure !== undefined) {
      // The alias's tries that all failed belong to the step that never got an answer, which
      // names the entry whose failure ended it (the turn's error is that entry's).
      const tried = route.unanswered();
      const last = tried.at(-1);
      if (last)
        steps.push({
          index: steps.length,
          startedAt: tried[0].startedAt,
          endedAt: Date.now(),
          toolCalls: [],
          provider: last.provider,
          model: last.model,
          attempts: tried,
        });
    }
    if (aborted || signal.aborted) return { stopReason: "cancelled", usage, steps, messages: resumed.messages };
    if (budget.stopped()) return { stopReason: "budget_exceeded", usage, steps, messages: resumed.messages };
    if (failure !== undefined)
      return {
        stopReason: "error",
        usage,
        steps,
        messages: resumed.messages,
        error: input.alias
          ? aliasErrorMessage(input.alias, route?.lastTries() ?? [], failure)
          : runErrorMessage(failure, input.connection),
      };
    if (needApproval.length && input.tools.policy?.unattended === "fail") {
      const names = [...new Set(needApproval.map((call) => call.toolName))].join(", ");
      emit({
        type: "error",
        message: `The run needs a person's approval to call ${names}, and it is unattended (flags.unattended: fail).`,
      });
      return { stopReason: "permission_required", usage, steps, messages: resumed.messages };
    }
    let paused = false;
    for (const call of needApproval) {
      if (!input.tools.approvals) continue;
      paused = true;
      emit(await approvalRequest(input.tools.approvals, call));
    }
    for (const [toolCallId, call] of calls) {
      if (call.answered || input.tools.byName.get(call.name)?.kind !== "client") continue;
      paused = true;
      emit({
        type: "interaction_request",
        id: toolCallId,
        kind: "client_tool",
        payload: { toolCallId, toolName: call.name, input: call.input, ...render(input, call.name) },
      });
    }
    return { stopReason: paused ? "paused" : (stopReason ?? "unknown"), usage, steps, messages: resumed.messages };
  },
};

/** The alias's entries as one model that falls through them, when the template named an alias. */
function aliasRoute(input: TurnInput): FallbackRoute | undefined {
  if (!input.alias) return undefined;
  return fallbackModel(
    input.alias.connections.map((connection) => ({ connection, model: languageModel(connection) })),
    {
      attemptTimeoutMs: input.alias.attemptTimeoutMs,
      // Moving on is the turn being alive: the engine's first-token limit starts again.
      onMove: () => input.activity?.dispatchEvent(new Event("activity")),
    },
  );
}

/**
 * The provider's raw stop reason when the contract's table knows it (`end_turn`, `tool_calls`, ...),
 * else the SDK's normalised one: Gemini's `STOP` or Mistral's `model_length` would otherwise read
 * as `unknown`.
 */
function stopReasonOf(part: { rawFinishReason: string | undefined; finishReason: string }): string {
  return part.rawFinishReason !== undefined && toFinishReason(part.rawFinishReason) !== "unknown"
    ? part.rawFinishReason
    : part.finishReason;
}

function lastUserText(messages: TurnInput["messages"]): string {
  const last = messages.findLast((message) => message.role === "user");
  return (last?.content ?? []).flatMap((block) => (block.type === "text" && block.text ? [block.text] : [])).join("\n");
}

function render(input: TurnInput, toolName: string): { render?: unknown } {
  const value = input.tools.byName.get(toolName)?.render;
  return value === undefined || value === null ? {} : { render: value };
}

/** Provider block ids restart per step and differ per provider; the wire gets one counter. */
class BlockIds {
  private next = 0;
  private readonly ids = new Map<string, string>();

  open(prefix: "msg" | "reason", step: number, providerId: string): string {
    const id = `${prefix}-${this.next++}`;
    this.ids.set(`${prefix}:${step}:${providerId}`, id);
    return id;
  }

  get(prefix: "msg" | "reason", step: number, providerId: string): string {
    return this.ids.get(`${prefix}:${step}:${providerId}`) ?? this.open(prefix, step, providerId);
  }
}
