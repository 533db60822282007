/** `llm.extras` keys that are the AI SDK's own call settings, the same for every provider. */
const CALL_SETTINGS = { temperature: "temperature", max_output_tokens: "maxOutputTokens" } as const;

export interface CallSettings {
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * `llm.extras` split for the AI SDK: `temperature` and `max_output_tokens` are call settings
 * every provider takes (the SDK maps them to each one's wire name); everything else goes to the
 * provider package unchanged except for key case: templates write the providers' own snake_case
 * names (`reasoning_effort`), the AI SDK reads camelCase.
 */
export function callSettings(extras: Record<string, unknown>): CallSettings {
  const out: CallSettings = {};
  for (const [key, setting] of Object.entries(CALL_SETTINGS)) {
    if (typeof extras[key] === "number") out[setting] = extras[key];
  }
  return out;
}

export function providerOptions(
  optionsKey: string,
  extras: Record<string, unknown>,
): Record<string, Record<string, never>> {
  const passed = Object.entries(extras).filter(([key]) => !Object.hasOwn(CALL_SETTINGS, key));
  if (passed.length === 0) return {};
  const options = Object.fromEntries(
    passed.map(([key, value]) => [key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value]),
  );
  return { [optionsKey]: options as Record<string, never> };
}
