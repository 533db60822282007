import type { Redactor } from "@/server/redaction";

/** What a run needs to reach a model: the provider, where, and with which credential. */
export interface ResolvedConnection {
  /** A catalog provider id, or `custom` for a custom OpenAI-compatible provider. */
  provider: string;
  model: string;
  /**
   * `custom`: the provider's API at a URL a project stored (OpenAI: its chat-completions dialect).
   * `bedrock` and `vertex`: the cloud-hosted Anthropic models the external harness signs in to.
   */
  deployment: "direct" | "custom" | "bedrock" | "vertex";
  apiKey?: string;
  baseUrl?: string;
  /** Set for user-supplied URLs: the egress-guarded fetch. */
  fetch?: typeof globalThis.fetch;
  /** Provider options from a custom provider's and its model's `extras`. */
  extras?: Record<string, unknown>;
  /** Name a custom provider's package instance reports (its slug). */
  customName?: string;
  /** How a person recognises this credential in an error: "the openai connection `work`". */
  label: string;
  /**
   * Set when the project redacts what is sent to the model (redaction settings `model_input`):
   * `languageModel` redacts every prompt with it before the provider sees it.
   */
  inputRedactor?: Redactor;
}
