import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DomainKeys } from "./domains";

/**
 * The compat API keeps applications, workflows and evaluators in one set of tables, told apart by
 * the role flags `is_application` and `is_evaluator`; its clients create a workflow flagged
 * `is_application` and then use it as an application. Here each has its own domain, and a domain
 * sees its own rows plus the rows of this family whose artifact carries its role flag.
 */
export const ROLE_DOMAINS: readonly string[] = ["applications", "workflows", "evaluators"];
const ROLE_FAMILY = sql.raw(`(${ROLE_DOMAINS.map((d) => `'${d}'`).join(", ")})`);

/** The role flags as the JSON parameter of the conditions below; null (matching nothing) for a domain without one. */
export function roleFlagsParam(keys: DomainKeys): string | null {
  return Object.keys(keys.roleFlags).length ? JSON.stringify(keys.roleFlags) : null;
}

/** An artifact row of the domain (`domain` and `roleFlags` may be placeholders of a prepared query). */
export function artifactInDomain(
  columns: { domain: AnyColumn; flags: AnyColumn },
  domain: unknown,
  roleFlags: unknown,
): SQL {
  return sql`(${columns.domain} = ${domain} or (${columns.domain} in ${ROLE_FAMILY} and ${columns.flags} @> ${roleFlags}::jsonb))`;
}

/** A variant or revision row of the domain: its own, or under an artifact carrying the role flag. */
export function childInDomain(
  columns: { domain: AnyColumn; artifactId: AnyColumn },
  domain: unknown,
  roleFlags: unknown,
): SQL {
  return sql`(${columns.domain} = ${domain} or (${columns.domain} in ${ROLE_FAMILY} and exists (select 1 from artifacts role_artifact where role_artifact.id = ${columns.artifactId} and role_artifact.flags @> ${roleFlags}::jsonb)))`;
}

/** The same two conditions for a domain known when the query is built. */
export const domainScope = (keys: DomainKeys) => ({
  artifact: (columns: { domain: AnyColumn; flags: AnyColumn }) =>
    artifactInDomain(columns, keys.name, roleFlagsParam(keys)),
  child: (columns: { domain: AnyColumn; artifactId: AnyColumn }) =>
    childInDomain(columns, keys.name, roleFlagsParam(keys)),
});
