/**
 * `llm.extras` go to the provider package unchanged except for key case: templates write the
 * providers' own snake_case names (`reasoning_effort`), the AI SDK reads camelCase.
 */
export function providerOptions(optionsKey: string, extras: Record<string, unknown>): Record<string, Record<string, never>> {
  if (Object.keys(extras).length === 0) return {};
  const options = Object.fromEntries(Object.entries(extras).map(([key, value]) => [key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value]));
  return { [optionsKey]: options as Record<string, never> };
}
