/** The judge model when the triage had none: the evaluator catalog's default. */
export const DEFAULT_TRIAGE_JUDGE = "openai/gpt-5-mini";

/** Output text as the evaluators read it: a string as is, an agent's messages as the last assistant text. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  const messages = Array.isArray(output)
    ? output
    : output && typeof output === "object" && Array.isArray((output as { messages?: unknown }).messages)
      ? (output as { messages: unknown[] }).messages
      : undefined;
  if (messages) {
    const texts = messages.flatMap((m) => {
      const message = m as { role?: string; content?: unknown };
      if (message.role !== "assistant") return [];
      if (typeof message.content === "string") return [message.content];
      if (Array.isArray(message.content))
        return [
          message.content
            .map((p) => ((p as { type?: string }).type === "text" ? String((p as { text?: unknown }).text ?? "") : ""))
            .join(""),
        ];
      return [];
    });
    const last = texts.filter(Boolean).at(-1);
    if (last !== undefined) return last;
  }
  return JSON.stringify(output ?? "");
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * The longest run of words (two to eight, at least 8 letters) that every output holds, as text
 * and as a case-insensitive RE2 pattern; undefined with fewer than two outputs (one output shares
 * everything with itself) or nothing shared. Pure.
 */
export function sharedPhrase(outputs: unknown[]): { text: string; pattern: string } | undefined {
  if (outputs.length < 2) return undefined;
  const texts = outputs.map((o) => words(outputText(o)));
  const [first, ...rest] = texts;
  const joined = rest.map((t) => ` ${t.join(" ")} `);
  for (let n = Math.min(8, first.length); n >= 2; n--) {
    for (let i = 0; i + n <= first.length; i++) {
      const phrase = first.slice(i, i + n).join(" ");
      if (phrase.replace(/ /g, "").length < 8) continue;
      if (joined.every((t) => t.includes(` ${phrase} `)))
        return {
          text: phrase,
          pattern: first
            .slice(i, i + n)
            .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join("\\W+"),
        };
    }
  }
  return undefined;
}

const braces = (text: string) => text.replace(/\{\{|\}\}/g, (m) => (m === "{{" ? "{ {" : "} }"));
const short = (value: unknown, max = 300) => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/**
 * The judge's messages: a rubric naming the mode, its description and what its examples were
 * told, then the case to grade. Example text cannot open a placeholder (`{{` is spaced out). Pure.
 */
export function judgeRubric(
  name: string,
  description: string,
  examples: { input?: unknown; output?: unknown; feedback?: string }[],
): { role: "system" | "user"; content: string }[] {
  const shown = examples
    .slice(0, 3)
    .map((e, i) =>
      [
        `Example ${i + 1}:`,
        `input: ${short(e.input)}`,
        `output: ${short(e.output)}`,
        ...(e.feedback ? [`why it failed: ${short(e.feedback)}`] : []),
      ].join("\n"),
    );
  const system = [
    `You check an AI agent's answer for one known failure mode: "${name}".`,
    `What goes wrong: ${description}`,
    ...(shown.length ? ["Examples of answers that showed it:", ...shown] : []),
    'Answer with JSON {"score": 0} when the answer shows this failure and {"score": 1} when it does not.',
  ].join("\n\n");
  return [
    { role: "system", content: braces(system) },
    { role: "user", content: "Input:\n{{inputs}}\n\nAnswer:\n{{outputs}}" },
  ];
}

/**
 * A JavaScript `evaluate(inputs, outputs, trace)` that fails (score 0) an output holding the
 * phrase, or a run whose `tool` failed, and passes (score 1) the rest. Pure.
 */
export function checkScript(phrase: string | undefined, tool: string | undefined): string {
  return `// Proposed by a triage: fails what shows the failure mode, passes the rest.
const PHRASE = ${JSON.stringify(phrase ?? null)};
const TOOL = ${JSON.stringify(tool ?? null)};

function textOf(outputs) {
  if (typeof outputs === "string") return outputs;
  const messages = Array.isArray(outputs) ? outputs : outputs && Array.isArray(outputs.messages) ? outputs.messages : null;
  if (messages) {
    const texts = messages
      .filter((m) => m && m.role === "assistant")
      .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.filter((p) => p && p.type === "text").map((p) => p.text).join("") : ""))
      .filter(Boolean);
    if (texts.length) return texts[texts.length - 1];
  }
  return JSON.stringify(outputs);
}

function evaluate(inputs, outputs, trace) {
  const words = (textOf(outputs).toLowerCase().match(/[\\p{L}\\p{N}']+/gu) || []).join(" ");
  if (PHRASE && (" " + words + " ").includes(" " + PHRASE + " ")) return { score: 0, success: false };
  const calls = (trace && trace.toolCalls) || [];
  if (TOOL && calls.some((c) => c.name === TOOL && c.isError)) return { score: 0, success: false };
  return { score: 1, success: true };
}
`;
}
