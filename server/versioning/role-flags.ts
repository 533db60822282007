import { BadRequestError } from "@/server/core/errors";
import { DOMAIN_NAMES, domainKeys, type DomainKeys } from "./domains";

/** The reference's legacy create bodies carry role flags beside `flags` (`{"is_evaluator": true}`). */
export interface LegacyRoleFlags {
  is_application?: boolean;
  is_evaluator?: boolean;
}

/**
 * The flags to store: `flags` with the legacy top-level role flags folded in. In the reference
 * applications and evaluators are flagged workflows; here each is its own domain, so a role flag
 * of another domain set true would make a thing that only looks like one: refused, naming where
 * to create it instead.
 */
export function flagsToStore(
  keys: DomainKeys,
  flags: Record<string, boolean> | undefined,
  legacy: LegacyRoleFlags = {},
): Record<string, boolean> | undefined {
  const merged: Record<string, boolean | undefined> = { ...flags, ...withoutUndefined(legacy) };
  for (const domain of DOMAIN_NAMES) {
    const other = domainKeys(domain);
    if (domain === keys.name) continue;
    for (const flag of Object.keys(other.roleFlags)) {
      if (merged[flag] === true && !keys.roleFlags[flag]) {
        throw new BadRequestError(
          `${flag} marks ${domain}: create it with POST /api/${domain}/ (${keys.name} and ${domain} are separate here, not flagged workflows)`,
          "role_flag_of_other_domain",
        );
      }
    }
  }
  return flags === undefined && Object.keys(withoutUndefined(legacy)).length === 0
    ? undefined
    : (merged as Record<string, boolean>);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
