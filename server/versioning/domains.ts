import { DOMAIN_NAMES, type DomainName } from "@/shared/domain-names";

export { DOMAIN_NAMES, type DomainName };

/** The wire vocabulary of one domain: `application_ref`, `application_revision_commit`, ... */
export interface DomainKeys {
  name: DomainName;
  /** `application`: the artifact key and the prefix of every other key. */
  one: string;
  variant: string;
  revision: string;
  variants: string;
  revisions: string;
  ref: string;
  variantRef: string;
  revisionRef: string;
  refs: string;
  variantRefs: string;
  revisionRefs: string;
  commit: string;
  artifactId: string;
  artifactSlug: string;
  variantId: string;
  variantSlug: string;
  revisionId: string;
  /**
   * Flags every entity of the domain carries on read (`is_application`, `is_evaluator`): the
   * reference implementation keeps applications and evaluators as flagged workflows, and its
   * clients filter on them.
   */
  roleFlags: Record<string, boolean>;
}

const SINGULAR: Record<DomainName, string> = {
  applications: "application",
  workflows: "workflow",
  evaluators: "evaluator",
  testsets: "testset",
  queries: "query",
  environments: "environment",
};

const ROLE_FLAGS: Partial<Record<DomainName, Record<string, boolean>>> = {
  applications: { is_application: true },
  evaluators: { is_evaluator: true },
};

export function domainKeys(name: DomainName): DomainKeys {
  const one = SINGULAR[name];
  return {
    name,
    one,
    variant: `${one}_variant`,
    revision: `${one}_revision`,
    variants: `${one}_variants`,
    revisions: `${one}_revisions`,
    ref: `${one}_ref`,
    variantRef: `${one}_variant_ref`,
    revisionRef: `${one}_revision_ref`,
    refs: `${one}_refs`,
    variantRefs: `${one}_variant_refs`,
    revisionRefs: `${one}_revision_refs`,
    commit: `${one}_revision_commit`,
    artifactId: `${one}_id`,
    artifactSlug: `${one}_slug`,
    variantId: `${one}_variant_id`,
    variantSlug: `${one}_variant_slug`,
    revisionId: `${one}_revision_id`,
    roleFlags: ROLE_FLAGS[name] ?? {},
  };
}

export function isDomainName(value: string): value is DomainName {
  return (DOMAIN_NAMES as readonly string[]).includes(value);
}

/** Domains whose revisions can be deployed to an environment. */
export const DEPLOYABLE: ReadonlySet<DomainName> = new Set(["applications", "workflows", "evaluators"]);

/** Domains with the compat API's simple API (`/api/simple/<domain>/`). */
export const SIMPLE: ReadonlySet<DomainName> = new Set([
  "applications",
  "workflows",
  "evaluators",
  "testsets",
  "queries",
  "environments",
]);

export function domainOfSingular(one: string): DomainName | undefined {
  return DOMAIN_NAMES.find((d) => SINGULAR[d] === one);
}
