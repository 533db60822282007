import type { UIMessage } from "ai";
import type { TestcaseData } from "./testset-table";

const textOf = (message: UIMessage) =>
  message.parts
    .filter((part): part is Extract<UIMessage["parts"][number], { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n\n")
    .trim();

/**
 * A testcase from one turn of a conversation (a chat turn, or a run read back from its trace):
 * what the agent received and, as the expected answer, what it said. A first turn is an `input`
 * column; a later one keeps the conversation before it as `messages` (the columns evaluation runs
 * send to an agent, server/evaluations/execution/test-input.ts). The answer is `correct_answer`,
 * the column the built-in evaluators compare with. Null when the turn has no user message.
 */
export function testcaseFromConversation(messages: readonly UIMessage[], assistantIndex?: number): TestcaseData | null {
  const at = assistantIndex ?? messages.findLastIndex((m) => m.role === "assistant");
  const history = (at >= 0 ? messages.slice(0, at) : messages).filter((m) => m.role !== "system");
  const users = history.filter((m) => m.role === "user");
  if (users.length === 0) return null;
  const answer = at >= 0 && messages[at]?.role === "assistant" ? textOf(messages[at]) : "";
  const input =
    history.length === 1
      ? { input: textOf(history[0]) }
      : { messages: history.map((m) => ({ role: m.role, content: textOf(m) })) };
  return { ...input, correct_answer: answer };
}
