/** The six versioned domains, as the API names them. */
export const DOMAIN_NAMES = ["applications", "workflows", "evaluators", "testsets", "queries", "environments"] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];
