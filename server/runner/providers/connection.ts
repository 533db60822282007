/** What a run needs to reach a model: the provider, where, and with which credential. */
export interface ResolvedConnection {
  provider: string;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  /** How a person recognises this credential in an error: "the openai key from OPENAI_API_KEY". */
  label: string;
}
