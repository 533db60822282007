import { BadRequestError } from "@/server/core/errors";
import { assertDeployAllowed } from "@/server/deploy-gates";
import {
  domainKeys,
  type CommitContext,
  type CommitPayload,
  type DomainSpec,
  type PreparedCommit,
} from "@/server/versioning";
import { normalizeEntry } from "./normalize-entry";
import { applyDelta, diffReferences, type ReferenceMap } from "./references-diff";

/**
 * An environment revision's data is `{references: {<key>: entry}}`. A commit sends either the
 * full map (`data`) or a `delta`; the delta applies to the previous revision read under the
 * variant lock, so concurrent deploys never lose each other's updates.
 */
export const environmentsSpec: DomainSpec = {
  keys: domainKeys("environments"),
  acceptsDelta: true,
  async prepareCommit(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit> {
    if (Boolean(payload.data) === Boolean(payload.delta)) {
      throw new BadRequestError(
        "An environment commit carries either data (the full references map) or delta (set, remove), not both and not neither",
        "data_or_delta",
      );
    }
    const previous = await ctx.previous();
    const before = (previous?.data?.references ?? {}) as ReferenceMap;
    let requested: ReferenceMap;
    if (payload.delta) {
      requested = applyDelta(before, payload.delta as { set?: ReferenceMap; remove?: string[] });
    } else {
      const references = payload.data!.references ?? {};
      if (typeof references !== "object" || Array.isArray(references)) {
        throw new BadRequestError("data.references must be an object of key to entry", "invalid_environment_entry");
      }
      requested = references as ReferenceMap;
    }
    const after: ReferenceMap = {};
    for (const [key, entry] of Object.entries(requested)) {
      // Unchanged entries were normalized when first committed.
      after[key] = before[key] === entry ? entry : await normalizeEntry(ctx.tx, ctx.projectId, key, entry);
    }
    const diff = diffReferences(before, after);
    // Under the variant lock, so the evidence is judged against the state this commit replaces.
    await assertDeployAllowed(ctx.tx, ctx.projectId, ctx.artifact.slug, {
      ...Object.fromEntries(Object.entries(diff.created).map(([key, d]) => [key, d.new])),
      ...Object.fromEntries(Object.entries(diff.updated).map(([key, d]) => [key, d.new])),
    });
    // A delta changes references only; the previous revision's other data carries over.
    const { references: _replaced, ...rest } = payload.delta ? (previous?.data ?? {}) : payload.data!;
    return {
      data: { ...rest, references: after },
      eventAttributes: { state: { references: after }, diff },
    };
  },
};
