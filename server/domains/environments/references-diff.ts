export type ReferenceMap = Record<string, Record<string, unknown>>;

export interface ReferencesDiff {
  created: Record<string, { new: Record<string, unknown> }>;
  updated: Record<string, { old: Record<string, unknown>; new: Record<string, unknown> }>;
  deleted: Record<string, { old: Record<string, unknown> }>;
}

/** What changed between two environment states; all three members are always present. */
export function diffReferences(before: ReferenceMap, after: ReferenceMap): ReferencesDiff {
  const diff: ReferencesDiff = { created: {}, updated: {}, deleted: {} };
  for (const [key, entry] of Object.entries(after)) {
    const old = before[key];
    if (!old) diff.created[key] = { new: entry };
    else if (JSON.stringify(old) !== JSON.stringify(entry)) diff.updated[key] = { old, new: entry };
  }
  for (const [key, old] of Object.entries(before)) if (!(key in after)) diff.deleted[key] = { old };
  return diff;
}

/** Applies `set` then `remove` to the previous references. */
export function applyDelta(before: ReferenceMap, delta: { set?: ReferenceMap; remove?: string[] }): ReferenceMap {
  const next: ReferenceMap = { ...before, ...delta.set };
  for (const key of delta.remove ?? []) delete next[key];
  return next;
}
