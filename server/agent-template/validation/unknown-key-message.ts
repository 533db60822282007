/**
 * Keys from the older flat configuration shape, with where they live now. Only the template's
 * root carries them, so only the root consults this table.
 */
const MOVED_ROOT_KEYS: Record<string, string> = {
  model: 'use llm.model, e.g. {"llm": {"model": "gpt-5-mini"}}',
  provider: 'use llm.provider, e.g. {"llm": {"provider": "openai"}}',
  agents_md: 'use instructions.agents_md, e.g. {"instructions": {"agents_md": "You are ..."}}',
};

/** Objects the Errors table calls selectors: an unknown key there is an "unknown selector key". */
const SELECTOR_PATHS = new Set(["harness", "runner", "sandbox"]);

/**
 * One message per unknown key. `allowedKeys` is the unknown-key text the strict object itself
 * produced ("allowed keys: ..."), so the list can never drift from the schema.
 */
export function unknownKeyMessage(objectPath: string, key: string, allowedKeys: string): string {
  if (objectPath === "" && Object.hasOwn(MOVED_ROOT_KEYS, key)) return `unknown key "${key}": ${MOVED_ROOT_KEYS[key]}`;
  const noun = SELECTOR_PATHS.has(objectPath) ? "unknown selector key" : "unknown key";
  return `${noun} "${key}"; ${allowedKeys}`;
}
