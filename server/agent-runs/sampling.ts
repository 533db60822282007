/** Generation settings a caller fixes for a turn (a prompt application's `llm_config`); unset = the provider's default. */
export interface Sampling {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}
