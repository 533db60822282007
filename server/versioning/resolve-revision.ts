import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { domainKeys, domainOfSingular, type DomainKeys } from "./domains";
import { Lookup } from "./lookup";
import type { RevisionRecord } from "./records";
import { hasIdentity, isEmptyRef, type Ref, type RetrieveRefs } from "./references";
import { checkAgreement } from "./reference-agreement";

export interface EnvironmentHop {
  revision: RevisionRecord;
  key: string;
}

/** One revision of an environment's split under a key, with its share of the traffic (percent). */
export interface SplitArm {
  weight: number;
  revision: RevisionRecord;
}

export interface Resolution {
  revision: RevisionRecord;
  /** Set when the revision was found through an environment. */
  environment?: EnvironmentHop;
  /**
   * Set when the environment splits the key between revisions (`data.splits[key]`, see
   * server/domains/environments/README.md): every arm, `revision` (the key's reference entry)
   * among them. Which arm serves a request is the caller's choice (`chooseArm`).
   */
  split?: SplitArm[];
}

/**
 * The five reference combinations of the interface contract "Retrieve", tried from most to least specific:
 * a revision id/slug; an environment (+ key); a variant (+ version); an artifact (+ version, on its
 * default variant). Every other supplied reference must then agree with what was found, the
 * environment included (it must point at a revision named by id or slug).
 */
export async function resolveRevision(
  db: Executor,
  projectId: string,
  keys: DomainKeys,
  refs: RetrieveRefs,
): Promise<Resolution> {
  const lookup = new Lookup(db, projectId, keys);
  const resolution = await locate(lookup, refs);
  checkAgreement(keys, refs, resolution.revision);
  return resolution;
}

/** Whether the references go through an environment (in the environments domain environment_ref is the artifact itself). */
export function throughEnvironment(keys: DomainKeys, refs: RetrieveRefs): boolean {
  return (
    keys.name !== "environments" &&
    (!isEmptyRef(refs.environment) || !isEmptyRef(refs.environmentVariant) || !isEmptyRef(refs.environmentRevision))
  );
}

async function locate(lookup: Lookup, refs: RetrieveRefs): Promise<Resolution> {
  const { keys } = lookup;
  const { artifact, variant, revision } = refs;
  const viaEnvironmentRefs = throughEnvironment(keys, refs);
  // A key is read in an environment: without one it would be dropped and another revision answered.
  if (refs.key !== undefined && !viaEnvironmentRefs && keys.name !== "environments") {
    throw new BadRequestError(
      `key "${refs.key}" names an entry of an environment: send environment_ref (id or slug) with it`,
      "key_without_environment",
    );
  }

  if (hasIdentity(revision)) {
    const found = await lookup.revision(revision!);
    if (!viaEnvironmentRefs) return { revision: found };
    // The environment is then a redundant reference: it must point at the same revision.
    const deployed = await viaEnvironment(lookup, refs, found.artifactSlug);
    // A revision of the split pins that arm: the caller chose it, no split choice is left.
    const pinned = deployed.split?.find((arm) => arm.revision.id === found.id)?.revision;
    if (pinned) return { revision: pinned, environment: deployed.environment };
    if (deployed.revision.id !== found.id) {
      throw new BadRequestError(
        `environment_ref "${deployed.environment!.revision.artifactSlug}" has ${keys.revision} ${deployed.revision.id} under key "${deployed.environment!.key}", not the ${keys.revisionRef} ${found.id}`,
        "reference_mismatch",
      );
    }
    return deployed;
  }

  if (viaEnvironmentRefs) return viaEnvironment(lookup, refs);

  const version = revision?.version ?? variant?.version ?? artifact?.version;
  if (hasIdentity(variant)) {
    // A variant id names one variant, and the artifact reference is only checked for agreement;
    // a variant slug is unique per artifact only, so it is looked up within the artifact.
    const found = variant!.id ? await lookup.inVariant(variant!.id, version) : undefined;
    if (found) return { revision: found };
    const artifactRow = hasIdentity(artifact) && !variant!.id ? await lookup.artifact(artifact!) : undefined;
    const variantRow = await lookup.variant(variant!, artifactRow?.id);
    return { revision: await lookup.revisionOfVariant(variantRow, version) };
  }
  if (hasIdentity(artifact)) {
    const latest = version ? undefined : await lookup.latestOfArtifact(artifact!);
    if (latest) return { revision: latest };
    const artifactRow = await lookup.artifact(artifact!);
    return { revision: await lookup.revisionOfVariant(await lookup.defaultVariant(artifactRow), version) };
  }
  if (version) {
    const field = revision?.version
      ? `${keys.revisionRef}.version`
      : variant?.version
        ? `${keys.variantRef}.version`
        : `${keys.ref}.version`;
    throw new BadRequestError(
      `${field} needs a variant or artifact to count in: add ${keys.variantRef} (id or slug) or ${keys.ref}`,
      "version_without_context",
    );
  }
  throw new BadRequestError(
    `No reference given: send ${keys.revisionRef}, ${keys.variantRef}, ${keys.ref} or environment_ref`,
    "missing_reference",
  );
}

async function viaEnvironment(lookup: Lookup, refs: RetrieveRefs, artifactSlug?: string): Promise<Resolution> {
  const { keys } = lookup;
  // Asking the environment is pointless without knowing which key to read: 400 before any lookup.
  if (!refs.key && !hasIdentity(refs.artifact) && !artifactSlug) throw missingKey(keys);
  // The common case (an environment by id or slug, and a key known without a lookup) is one query.
  const knownKey =
    refs.key ??
    (refs.artifact?.slug
      ? `${refs.artifact.slug}.revision`
      : !refs.artifact?.id && artifactSlug
        ? `${artifactSlug}.revision`
        : undefined);
  if (
    knownKey &&
    hasIdentity(refs.environment) &&
    isEmptyRef(refs.environmentVariant) &&
    isEmptyRef(refs.environmentRevision)
  ) {
    const found = await lookup.deployed(refs.environment!, knownKey);
    if (found)
      return withSplit(lookup, { revision: found.target, environment: { revision: found.environment, key: knownKey } });
  }
  const envKeys = domainKeys("environments");
  const env = await resolveRevision(lookup.db, lookup.projectId, envKeys, {
    artifact: refs.environment,
    variant: refs.environmentVariant,
    revision: refs.environmentRevision,
  });
  const key = refs.key ?? (await defaultKey(lookup, refs.artifact, artifactSlug));
  const references = (env.revision.data?.references ?? {}) as Record<string, Record<string, Ref> | undefined>;
  const entry = references[key];
  if (!entry) {
    throw new NotFoundError(`environment "${env.revision.artifactSlug}" has nothing deployed under key "${key}"`);
  }
  const target = entry[keys.revision];
  if (!target?.id && (hasIdentity(entry[keys.one]) || hasIdentity(entry[keys.variant]))) {
    // An entry stored without a revision (as the compat API stores it) follows its variant or artifact.
    const followed = await resolveRevision(lookup.db, lookup.projectId, keys, {
      artifact: entry[keys.one],
      variant: entry[keys.variant],
    });
    return { revision: followed.revision, environment: { revision: env.revision, key } };
  }
  if (!target?.id) {
    // Each domain reads only its own family of the entry, as the compat API does: a key deployed as
    // another kind (a workflow, read as an application) holds nothing for this domain, a 404 like a missing key.
    const other = Object.keys(entry)
      .map((k) => domainOfSingular(k.replace(/_(revision|variant)$/, "")))
      .find((d) => d && d !== keys.name);
    throw new NotFoundError(
      `environment "${env.revision.artifactSlug}" has no ${keys.revision} under key "${key}"` +
        (other
          ? ` (it holds ${domainKeys(other).one} references: read it with POST /api/${other}/revisions/retrieve)`
          : ""),
    );
  }
  const revision = await lookup.revision({ id: target.id }, `environment "${env.revision.artifactSlug}" key "${key}"`);
  return withSplit(lookup, { revision, environment: { revision: env.revision, key } });
}

/**
 * Adds the split of the hop's key, when the environment revision has one: its arms' revisions
 * (entries stored with ids, like references; the reference entry's revision is one of them).
 */
async function withSplit(lookup: Lookup, found: Resolution): Promise<Resolution> {
  const { environment } = found;
  const splits = environment!.revision.data?.splits as Record<string, Record<string, unknown>[]> | undefined;
  const arms = splits?.[environment!.key];
  if (!Array.isArray(arms)) return found;
  const split: SplitArm[] = [];
  for (const arm of arms) {
    const id = (arm[lookup.keys.revision] as Ref | undefined)?.id;
    if (!id) return found;
    const revision =
      id === found.revision.id
        ? found.revision
        : await lookup.revision(
            { id },
            `environment "${environment!.revision.artifactSlug}" split "${environment!.key}"`,
          );
    split.push({ weight: Number(arm.weight), revision });
  }
  return { ...found, split };
}

/** `<artifact slug>.revision`, the key a deploy uses unless told otherwise. */
async function defaultKey(lookup: Lookup, artifact: Ref | undefined, artifactSlug?: string): Promise<string> {
  if (artifact?.slug) return `${artifact.slug}.revision`;
  if (artifact?.id) return `${(await lookup.artifact(artifact)).slug}.revision`;
  if (artifactSlug) return `${artifactSlug}.revision`;
  throw missingKey(lookup.keys);
}

function missingKey(keys: DomainKeys): BadRequestError {
  return new BadRequestError(
    `Retrieving through an environment needs "key" or ${keys.ref} (its slug gives the key "<slug>.revision")`,
    "missing_key",
  );
}
