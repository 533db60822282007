import { z } from "zod";
import { oneSchema, pageSchema } from "@/server/http/envelope";
import { domainKeys, type DomainKeys } from "../domains";
import {
  artifactWireSchema,
  resolutionInfoSchema,
  retrievalInfoSchema,
  revisionWireSchema,
  variantWireSchema,
} from "../wire";

const warnings = z
  .array(z.string())
  .optional()
  .describe("What the commit accepted but a person should know (absent when none)");

/** Response bodies of one domain, with that domain's key names (the counterpart of requestSchemas). */
export function responseSchemas(keys: DomainKeys) {
  const artifact = artifactWireSchema();
  const variant = variantWireSchema(keys);
  const revision = revisionWireSchema(keys);
  const envKeys = domainKeys("environments");
  const revisionOne = oneSchema(keys.revision, revision);
  return {
    artifact: oneSchema(keys.one, artifact),
    artifactCreated: oneSchema(keys.one, artifact).extend({
      [keys.variant]: variant.optional(),
      [keys.revision]: revision.optional(),
      warnings,
    }),
    artifactPage: pageSchema(keys.name, artifact),
    variant: oneSchema(keys.variant, variant),
    variantPage: pageSchema(keys.variants, variant),
    fork: oneSchema(keys.variant, variant).extend({ [keys.revision]: revision }),
    revision: revisionOne,
    committed: revisionOne.extend({ warnings }),
    revisionPage: pageSchema(keys.revisions, revision),
    log: z.object({
      count: z.number().int(),
      [keys.revisions]: z.array(revision),
      detail: z.string().optional().describe("With count 0: what was not found"),
    }),
    retrieved: revisionOne.extend({
      retrieval_info: retrievalInfoSchema(keys, envKeys),
      resolution_info: resolutionInfoSchema.optional(),
      /** Testsets: where the next window of rows starts (`windowing.next`), when more remain. */
      windowing: z.strictObject({ next: z.string() }).optional(),
    }),
    resolved: z.union([
      revisionOne.extend({ retrieval_info: retrievalInfoSchema(keys, envKeys), resolution_info: resolutionInfoSchema }),
      oneSchema(keys.revision, z.strictObject({ data: z.record(z.string(), z.unknown()) })).extend({
        resolution_info: resolutionInfoSchema,
      }),
    ]),
    deployed: oneSchema(envKeys.revision, revisionWireSchema(envKeys)).extend({ [keys.revision]: revision }),
  };
}
