import { BadRequestError } from "@/server/core/errors";
import { assertDeployAllowed } from "@/server/deploy-gates";
import {
  domainKeys,
  type CommitContext,
  type CommitPayload,
  type DomainSpec,
  type PreparedCommit,
} from "@/server/versioning";
import { ENVIRONMENT_DATA_KEYS } from "../data-keys";
import { assertMayCommitTo, assertMayEditGuard } from "./guard";
import { normalizeEntry } from "./normalize-entry";
import { applyDelta, diffReferences, type ReferenceMap, type ReferencesDiff } from "./references-diff";
import { splitEnded } from "./split-ends";
import { normalizeSplits, revisionIdOf, type SplitMap } from "./splits";

/**
 * An environment revision's data is `{references: {<key>: entry}}`. A commit sends either the
 * full map (`data`) or a `delta`; the delta applies to the previous revision read under the
 * variant lock, so concurrent deploys never lose each other's updates.
 */
export const environmentsSpec: DomainSpec = {
  keys: domainKeys("environments"),
  dataKeys: ENVIRONMENT_DATA_KEYS,
  acceptsDelta: true,
  checkArtifactEdit: assertMayEditGuard,
  async prepareCommit(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit> {
    await assertMayCommitTo(ctx);
    // The compat API's empty initial revision (version 0): an environment that deploys nothing yet.
    if (payload.initial && !payload.data && !payload.delta) {
      const empty = { references: {} };
      return { data: empty, eventAttributes: { state: empty, diff: diffReferences({}, {}) } };
    }
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
    const beforeSplits = (previous?.data?.splits ?? {}) as SplitMap;
    const splits = await normalizeSplits(
      ctx.tx,
      ctx.projectId,
      beforeSplits,
      requestedSplits(payload, beforeSplits, diff),
      after,
    );
    // Who keeps state about a split hears of its end in this transaction (split-ends.ts: a canary
    // ends with it; the canary actions set their own outcome after their commit).
    for (const key of Object.keys(beforeSplits))
      if (!splits[key]) await splitEnded(ctx.tx, { projectId: ctx.projectId, variantId: ctx.variant.id, key });
    // Under the variant lock, so the evidence is judged against the state this commit replaces.
    // A revision entering a split is deployed to its share of the traffic: the rule applies to it too.
    await assertDeployAllowed(ctx.tx, ctx.projectId, ctx.artifact.slug, {
      ...Object.fromEntries(Object.entries(diff.created).map(([key, d]) => [key, d.new])),
      ...Object.fromEntries(Object.entries(diff.updated).map(([key, d]) => [key, d.new])),
      ...enteringArms(before, beforeSplits, splits),
    });
    // A delta changes references and splits only; the previous revision's other data carries over.
    const { references: _replaced, splits: _split, ...rest } = payload.delta ? (previous?.data ?? {}) : payload.data!;
    const hasSplits = Object.keys(splits).length > 0;
    return {
      data: { ...rest, references: after, ...(hasSplits ? { splits } : {}) },
      eventAttributes: { state: { references: after, ...(hasSplits ? { splits } : {}) }, diff },
    };
  },
};

/**
 * The splits a commit asks for. `data` carries them whole. A `delta` changes the previous ones
 * with `splits` (an array sets a key's split, `null` ends it); a key whose reference the delta
 * moves or removes without setting its split loses the split: a deploy moves the key for everyone.
 */
function requestedSplits(payload: CommitPayload, before: SplitMap, diff: ReferencesDiff): SplitMap {
  if (!payload.delta) {
    const splits = payload.data!.splits ?? {};
    if (typeof splits !== "object" || Array.isArray(splits))
      throw new BadRequestError("data.splits must be an object of key to weighted revisions", "invalid_split");
    return splits as SplitMap;
  }
  const explicit = (payload.delta.splits ?? {}) as Record<string, SplitMap[string] | null>;
  const next: SplitMap = {};
  for (const [key, arms] of Object.entries(before))
    if (!(key in diff.updated) && !(key in diff.deleted)) next[key] = arms;
  for (const [key, arms] of Object.entries(explicit)) {
    if (arms === null) delete next[key];
    else next[key] = arms;
  }
  return next;
}

/** Arms whose revision the key did not run before (neither in its split nor as its reference). */
function enteringArms(
  before: ReferenceMap,
  beforeSplits: SplitMap,
  after: SplitMap,
): Record<string, Record<string, unknown>> {
  const entering: Record<string, Record<string, unknown>> = {};
  for (const [key, arms] of Object.entries(after)) {
    const ran = new Set([revisionIdOf(before[key]), ...(beforeSplits[key] ?? []).map(revisionIdOf)]);
    arms.forEach((arm, i) => {
      if (!ran.has(revisionIdOf(arm))) entering[`${key} (split ${i + 1})`] = arm;
    });
  }
  return entering;
}
