import type { ContentBlock, NativeMessage } from "@/server/streams";
import type { Emit, StepTiming } from "../run-types";
import type { BuiltTools } from "../tools/tool-types";
import { approvalRequest } from "./approval-request";
import { approvalExpiredMessage } from "./approval-store";

export const DENIED_BY_USER = "The user denied this tool call.";

/**
 * Answers to approval requests sent with this turn (a tool_result carrying `approved` and the
 * request's id as `interactionToken`) are settled before the model is called: a denial becomes
 * `tool_result{denied}` and the model is told; an approval that matches a pending request for the
 * same call, tool and arguments runs the tool once and its output replaces the answer in the
 * history. Any other approval (forged id, changed arguments, replayed) asks again, and the turn
 * stays paused without calling the model.
 */
export async function resumeApprovals(
  messages: NativeMessage[],
  tools: BuiltTools,
  emit: Emit,
  signal: AbortSignal,
): Promise<{ messages: NativeMessage[]; steps: StepTiming[]; paused: boolean }> {
  const calls = new Map<string, ContentBlock>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === "tool_call" && block.toolCallId) calls.set(block.toolCallId, block);
  const step: StepTiming = {
    index: 0,
    approvals: true,
    startedAt: Date.now(),
    toolCalls: [],
    finishReason: "approval",
  };
  let paused = false;
  const settled: NativeMessage[] = [];
  for (const message of messages) {
    const content: ContentBlock[] = [];
    for (const block of message.content) {
      if (
        block.type !== "tool_result" ||
        block.approved === undefined ||
        !block.interactionToken ||
        !block.toolCallId
      ) {
        content.push(block);
        continue;
      }
      const call = calls.get(block.toolCallId);
      const toolName = call?.toolName ?? block.toolName ?? "tool";
      const identity = { toolCallId: block.toolCallId, toolName, input: call?.input ?? {} };
      const registered = tools.byName.get(toolName);
      if (!block.approved) {
        await tools.approvals?.consume(block.interactionToken, identity);
        emit({ type: "tool_result", id: block.toolCallId, output: DENIED_BY_USER, denied: true });
        content.push(block);
        continue;
      }
      if (await tools.approvals?.expire(block.interactionToken)) {
        const output = approvalExpiredMessage(toolName, tools.approvals!.ttlMs);
        emit({ type: "tool_result", id: block.toolCallId, output, isError: true });
        content.push({ type: "tool_result", toolCallId: block.toolCallId, toolName, output, isError: true });
        continue;
      }
      if (!registered?.run) {
        const output = `"${toolName}" is not a tool this agent can run`;
        emit({ type: "tool_result", id: block.toolCallId, output, isError: true });
        content.push({ type: "tool_result", toolCallId: block.toolCallId, toolName, output, isError: true });
        continue;
      }
      if (!tools.approvals || !(await tools.approvals.consume(block.interactionToken, identity))) {
        paused = true;
        if (tools.approvals) {
          // A renewed request is announced with its call, so a batch fold can name the tool.
          emit({ type: "tool_call", id: block.toolCallId, name: toolName, input: identity.input });
          emit(await approvalRequest(tools.approvals, identity));
        }
        content.push(block);
        continue;
      }
      const timing: StepTiming["toolCalls"][number] = {
        id: block.toolCallId,
        name: toolName,
        input: identity.input,
        approved: true,
        startedAt: Date.now(),
      };
      step.toolCalls.push(timing);
      let output: unknown;
      let isError = false;
      try {
        output = await registered.run(identity.input, signal, block.toolCallId);
      } catch (error) {
        output = error instanceof Error ? error.message : String(error);
        isError = true;
      }
      Object.assign(timing, { endedAt: Date.now(), output, isError });
      emit({ type: "tool_result", id: block.toolCallId, output, isError });
      if (!isError) for (const event of registered.resultEvents?.(output) ?? []) emit(event);
      // `approved` stays on the result: the trace shows the call as approved, with its real output.
      content.push({ type: "tool_result", toolCallId: block.toolCallId, toolName, output, isError, approved: true });
    }
    settled.push({ ...message, content });
  }
  step.endedAt = Date.now();
  return { messages: settled, steps: step.toolCalls.length ? [step] : [], paused };
}
