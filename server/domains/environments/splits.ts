import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { normalizeEntry } from "./normalize-entry";
import type { ReferenceMap } from "./references-diff";

/**
 * `data.splits[key]`: the revisions an environment sends a key's traffic to, with their weights,
 * e.g. `[{"weight": 95, "workflow_revision": {...}}, {"weight": 5, "workflow_revision": {...}}]`.
 * Each arm is an entry as in `references` (stored complete) plus its weight in percent.
 */
export type SplitArmEntry = Record<string, unknown> & { weight: number };
export type SplitMap = Record<string, SplitArmEntry[]>;

export const MAX_SPLIT_REVISIONS = 4;

const hundredths = (weight: number) => Math.round(weight * 100);

/**
 * The splits after a commit, checked and stored complete. A key's split needs the key in
 * `references` (the entry readers that know nothing of splits see), whose revision must be one of
 * the arms; 2 to 4 revisions of one artifact, each named by revision, weights above 0 in steps of
 * 0.01 that sum to 100. Arrays the commit did not change were checked when first committed.
 */
export async function normalizeSplits(
  db: Executor,
  projectId: string,
  before: SplitMap,
  requested: SplitMap,
  references: ReferenceMap,
): Promise<SplitMap> {
  const after: SplitMap = {};
  for (const [key, arms] of Object.entries(requested)) {
    after[key] = before[key] === arms ? arms : await normalizeSplit(db, projectId, key, arms, references[key]);
    const primary = revisionIdOf(references[key]);
    if (!after[key].some((arm) => revisionIdOf(arm) === primary)) {
      throw new BadRequestError(
        `splits["${key}"] must include the revision references["${key}"] names (${primary ?? "none"}): that entry is what readers without splits see`,
        "invalid_split",
      );
    }
  }
  return after;
}

async function normalizeSplit(
  db: Executor,
  projectId: string,
  key: string,
  arms: unknown,
  reference: Record<string, unknown> | undefined,
): Promise<SplitArmEntry[]> {
  const field = `splits["${key}"]`;
  if (!reference)
    throw new BadRequestError(`${field} needs references["${key}"]: deploy the key first`, "invalid_split");
  if (!Array.isArray(arms) || arms.length < 2 || arms.length > MAX_SPLIT_REVISIONS) {
    throw new BadRequestError(
      `${field} must list 2 to ${MAX_SPLIT_REVISIONS} revisions with weights, such as [{"weight": 95, "workflow_revision": {"id": "..."}}, {"weight": 5, ...}]`,
      "invalid_split",
    );
  }
  const out: SplitArmEntry[] = [];
  for (const [i, arm] of arms.entries()) {
    if (typeof arm !== "object" || arm === null || Array.isArray(arm))
      throw new BadRequestError(`${field}[${i}] must be an object with weight and a revision`, "invalid_split");
    const { weight, ...entry } = arm as Record<string, unknown>;
    if (
      typeof weight !== "number" ||
      !(weight > 0) ||
      weight > 100 ||
      Math.abs(hundredths(weight) - weight * 100) > 1e-6
    )
      throw new BadRequestError(
        `${field}[${i}].weight must be a percentage above 0, in steps of 0.01`,
        "invalid_split",
      );
    const normalized = await normalizeEntry(db, projectId, key, entry, `${field}[${i}]`);
    if (!revisionIdOf(normalized))
      throw new BadRequestError(`${field}[${i}] must name a revision (its _revision reference)`, "invalid_split");
    out.push({ weight, ...normalized });
  }
  if (out.reduce((sum, arm) => sum + hundredths(arm.weight), 0) !== 10_000)
    throw new BadRequestError(
      `${field}: weights must sum to 100 (they sum to ${out.reduce((s, a) => s + hundredths(a.weight), 0) / 100})`,
      "invalid_split",
    );
  const artifacts = new Set(out.map(artifactIdOf));
  const revisions = new Set(out.map(revisionIdOf));
  if (artifacts.size !== 1 || artifacts.has(undefined))
    throw new BadRequestError(`${field} must split between revisions of one artifact`, "invalid_split");
  if (revisions.size !== out.length)
    throw new BadRequestError(`${field} names a revision twice; give each revision one weight`, "invalid_split");
  return out;
}

/** The revision id an entry (or arm) names: `<family>_revision.id`. */
export function revisionIdOf(entry: Record<string, unknown> | undefined): string | undefined {
  if (!entry) return undefined;
  for (const [k, v] of Object.entries(entry))
    if (k.endsWith("_revision") && typeof v === "object" && v !== null) return (v as { id?: string }).id;
  return undefined;
}

function artifactIdOf(entry: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(entry))
    if (k !== "weight" && !k.endsWith("_revision") && !k.endsWith("_variant") && typeof v === "object" && v !== null)
      return (v as { id?: string }).id;
  return undefined;
}
