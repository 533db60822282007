/** The compat API's legacy create bodies carry role flags beside `flags` (`{"is_evaluator": true}`). */
export interface LegacyRoleFlags {
  is_application?: boolean;
  is_evaluator?: boolean;
}

/**
 * The flags to store: `flags` with the legacy top-level role flags folded in. A role flag of
 * another domain is kept as sent (a workflow flagged `is_application`, as the compat API's clients
 * make them), and makes the artifact visible in that domain too (domain-scope.ts).
 */
export function flagsToStore(
  flags: Record<string, boolean> | undefined,
  legacy: LegacyRoleFlags = {},
): Record<string, boolean> | undefined {
  const given = withoutUndefined(legacy);
  if (flags === undefined && Object.keys(given).length === 0) return undefined;
  return { ...flags, ...given } as Record<string, boolean>;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
