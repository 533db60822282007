import { defineRoute, type AnyRoute } from "@/server/http/route";
import { one } from "@/server/http/envelope";
import { refsOf, requestSchemas, responseSchemas, scopeOf } from "@/server/versioning";
import { revisionToWire, type DomainSpec, type Ref } from "@/server/versioning";
import { deployRevision } from "./deploy";
import { environmentsSpec } from "./spec";

/** `POST /api/<domain>/revisions/deploy` for applications, workflows and evaluators. */
export function deployRoute(spec: DomainSpec): AnyRoute {
  const { keys } = spec;
  return defineRoute({
    method: "POST",
    path: `/api/${keys.name}/revisions/deploy`,
    auth: "api_key",
    tag: keys.name,
    summary: `Deploy a ${keys.revision} to an environment: commits an environment revision pointing key (default "<slug>.revision") at it`,
    body: requestSchemas(keys, { acceptsDelta: false }).deploy,
    response: responseSchemas(keys).deployed,
    errors: [
      "ambiguous_reference",
      "archived",
      "evaluation_below_threshold",
      "evaluation_required",
      "initial_revision_exists",
      "key_without_environment",
      "missing_key",
      "missing_reference",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "slug_taken",
      "version_without_context",
    ],
    handler: async ({ ctx, body }) => {
      // environment_ref names the target here, not a way to find the source revision.
      const { artifact, variant, revision } = refsOf(keys, body);
      const { deployed, environmentRevision } = await deployRevision(ctx.app.db, scopeOf(ctx), keys, {
        source: { artifact, variant, revision },
        environment: (body.environment_ref ?? undefined) as Ref | undefined,
        environmentVariant: (body.environment_variant_ref ?? undefined) as Ref | undefined,
        environmentRevision: (body.environment_revision_ref ?? undefined) as Ref | undefined,
        key: (body.key ?? undefined) as string | undefined,
        message: (body.message ?? undefined) as string | undefined,
      });
      // The compat API answers the deployed revision, data included; the environment revision is ours.
      return {
        ...one(environmentsSpec.keys.revision, revisionToWire(environmentsSpec.keys, environmentRevision)),
        [keys.revision]: revisionToWire(keys, deployed),
      };
    },
  });
}
