/** Columns that hold what an evaluator compares with, never sent to the application. */
const ANSWER_COLUMNS = new Set([
  "correct_answer",
  "expected",
  "expected_output",
  "expected_tool_calls",
  "expected_trajectory",
]);

/**
 * The messages an agent receives for a testcase: its `messages` column when it has one (a
 * conversation), else a user message with its `input` (or `question`, `prompt`) column, else
 * the testcase's columns (answer columns left out) as JSON.
 */
export function agentMessages(columns: Record<string, unknown>): unknown[] {
  if (Array.isArray(columns.messages)) return columns.messages;
  for (const key of ["input", "question", "prompt"]) {
    const value = columns[key];
    if (typeof value === "string") return [{ role: "user", content: value }];
  }
  const rest = Object.fromEntries(Object.entries(columns).filter(([k]) => !ANSWER_COLUMNS.has(k)));
  return [{ role: "user", content: JSON.stringify(rest) }];
}
