/**
 * A `provider/model` string given without a provider splits on the first `/`. With an explicit
 * provider the model is taken verbatim: many provider namespaces contain `/` themselves
 * (openrouter `anthropic/claude-sonnet-4.5`, groq `openai/gpt-oss-120b`), so stripping a
 * prefix that happens to equal the provider would corrupt those ids.
 */
export function splitModel<T extends { model: string; provider: string | null }>(llm: T): T {
  if (llm.provider !== null) return llm;
  const slash = llm.model.indexOf("/");
  if (slash < 0) return llm;
  return { ...llm, provider: llm.model.slice(0, slash), model: llm.model.slice(slash + 1) };
}

/** What a provider-less model must look like so that both halves of a split are non-empty. */
export const SPLITTABLE_MODEL = /^[^/]+(\/[\s\S]+)?$/;
