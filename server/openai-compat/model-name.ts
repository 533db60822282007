import { BadRequestError } from "@/server/core/errors";
import { SLUG_PATTERN } from "@/shared/slug-rules";
import type { InvokeRequest } from "@/server/agent-runs";

/** What a `model` string names: an agent, what an environment runs of it, or a pinned revision. */
export type ModelName =
  { agent: string } | { agent: string; environment: string } | { agent: string; variant: string; version: string };

const VERSION = /^[0-9]{1,10}$/;

/**
 * `<agent>` (its default variant's latest revision), `<agent>@<environment>` (what the
 * environment runs now), `<agent>@<variant>:<version>` (a pinned revision). Slugs hold no `@`,
 * `:` or `.`, so the string splits without ambiguity.
 */
export function parseModelName(model: string): ModelName {
  const [agent, rest, extra] = model.split("@");
  const invalid = () =>
    new BadRequestError(
      `model "${model}" is not <agent>, <agent>@<environment> or <agent>@<variant>:<version>; GET /v1/models lists what this key can call`,
      "invalid_model",
      [{ path: "model", message: "not a model name" }],
    );
  if (extra !== undefined || !SLUG_PATTERN.test(agent)) throw invalid();
  if (rest === undefined) return { agent };
  const [target, version, more] = rest.split(":");
  if (more !== undefined || !SLUG_PATTERN.test(target)) throw invalid();
  if (version === undefined) return { agent, environment: target };
  if (!VERSION.test(version)) throw invalid();
  return { agent, variant: target, version };
}

/** The invoke references that run what the name says (retrieve's rules, environment-backed when named). */
export function modelReferences(name: ModelName): NonNullable<InvokeRequest["references"]> {
  if ("environment" in name) return { workflow: { slug: name.agent }, environment: { slug: name.environment } };
  if ("variant" in name)
    return {
      workflow: { slug: name.agent },
      workflow_variant: { slug: name.variant },
      workflow_revision: { version: name.version },
    };
  return { workflow: { slug: name.agent } };
}
