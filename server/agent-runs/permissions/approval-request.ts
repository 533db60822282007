import type { NativeEvent } from "@/server/streams";
import type { ApprovalStore, ToolCallIdentity } from "./approval-store";

/** The replies a person can give to a `user_approval` request. */
export const APPROVAL_REPLIES = ["approve", "deny"] as const;

/** Records a pending approval and returns the `interaction_request` that announces it. */
export async function approvalRequest(
  store: ApprovalStore,
  call: ToolCallIdentity,
): Promise<Extract<NativeEvent, { type: "interaction_request" }>> {
  const id = await store.issue(call);
  return {
    type: "interaction_request",
    id,
    kind: "user_approval",
    payload: {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      toolCall: { name: call.toolName, rawInput: call.input },
      availableReplies: [...APPROVAL_REPLIES],
    },
  };
}
