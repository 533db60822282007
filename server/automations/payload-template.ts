import { BadRequestError } from "@/server/core/errors";
import { lookupPath, renderTemplate, unsupportedTag } from "@/server/core/render-template";

/**
 * How a firing's payload reaches an agent's input: `{{ path }}` in a message or a string input
 * is rendered by the one renderer (server/core/render-template.ts, `curly`): the value at that
 * dotted path (`{{ issue.title }}`, `{{ items.0.id }}`), a string as it is, anything else as
 * JSON. Only the payload's own keys are found (`{{ constructor }}` is not one). A path the
 * payload does not have fails the firing, naming it: an empty hole would change what the agent
 * is asked without anyone noticing (a filter with `exists` passes such payloads over instead).
 * Pure.
 */
export function fillTemplate(text: string, payload: Record<string, unknown>): string {
  return renderTemplate(text, "curly", payload, (problem) =>
    problem.kind === "missing"
      ? new BadRequestError(
          `the payload has no ${problem.path} (${problem.placeholder}); it holds ${Object.keys(payload).join(", ") || "nothing"}`,
          "missing_variable",
        )
      : new BadRequestError(`${problem.tag}: only {{ path }} placeholders are filled`, "unsupported_prompt"),
  );
}

/** The first template tag `text` holds that is not rendered (a section, a comment...), to refuse at save. */
export const unrenderedTag = (text: string) => unsupportedTag(text, "curly");

/** A payload as placeholders and filters read it: a JSON body that is not an object has no paths. */
export const payloadFields = (payload: unknown): Record<string, unknown> =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {};

/** One condition of a trigger's filter: the value at `path` equals `equals`, or is one of `in`, or `exists`. */
export interface PayloadCondition {
  path: string;
  equals?: unknown;
  in?: unknown[];
  exists?: boolean;
}

/**
 * Every condition holds (an empty filter lets everything through). A path is read as
 * placeholders read it (`lookupPath`): own keys only, so `toString` exists in no payload.
 */
export function matchesFilter(
  payload: Record<string, unknown>,
  filter: readonly PayloadCondition[] | null | undefined,
): boolean {
  return (filter ?? []).every((condition) => {
    const { found, value } = lookupPath(payload, condition.path);
    if (condition.exists !== undefined && found !== condition.exists) return false;
    if (condition.equals !== undefined && (!found || JSON.stringify(value) !== JSON.stringify(condition.equals)))
      return false;
    if (
      condition.in !== undefined &&
      (!found || !condition.in.some((v) => JSON.stringify(v) === JSON.stringify(value)))
    )
      return false;
    return true;
  });
}
