/**
 * Values the template falls back to when `instructions.agents_md` or `llm.model` is omitted.
 * The default model must stay in the curated catalog list (a catalog test enforces it).
 */
export const DEFAULT_AGENTS_MD = [
  "You are a friendly greeting agent.",
  "",
  "- Greet the user warmly.",
  "- Answer the user's message in one or two short sentences.",
].join("\n");

export const DEFAULT_PROVIDER = "openai";

export const DEFAULT_MODEL = "gpt-5-mini";
