/** A sample testcase whose answer column is the one the evaluator reads (`correct_answer_key`). */
export function sampleInputs(parameters: Record<string, unknown> | undefined): string {
  const key = typeof parameters?.correct_answer_key === "string" && parameters.correct_answer_key.trim();
  return JSON.stringify({ question: "What is 2 + 2?", [key || "correct_answer"]: "4" }, null, 2);
}
