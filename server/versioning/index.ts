export { FIRST_VARIANT_SLUG, createArtifact, freeSlug, insertArtifact, getArtifact, queryArtifacts } from "./artifacts";
export { commitInTransaction, commitRevision, type CommitRequest, type CommitResult } from "./commit";
export type {
  ArtifactEditContext,
  CommitContext,
  CommitPayload,
  DomainSpec,
  PreparedCommit,
  RetrievedContext,
  Shaped,
} from "./domain-spec";
export {
  DEPLOYABLE,
  DOMAIN_NAMES,
  SIMPLE,
  domainKeys,
  domainOfSingular,
  isDomainName,
  type DomainKeys,
  type DomainName,
} from "./domains";
export {
  isEmbed,
  resolveEmbeds,
  type EmbedErrorPolicy,
  type EmbedOptions,
  type EmbedUse,
  type ResolvedData,
} from "./embeds";
export { isDefaultVariant, Lookup } from "./lookup";
export type { ArtifactRecord, EntityHeader, RevisionRecord, Scope, VariantRecord } from "./records";
export { isEmptyRef, refSchema, type Ref, type RetrieveRefs } from "./references";
export { resolveRevision, type Resolution, type SplitArm } from "./resolve-revision";
export {
  chooseArm,
  splitBucket,
  SERVED_REVISION_HEADER,
  SERVED_REVISION_HEADERS,
  SPLIT_BUCKETS,
  SPLIT_KEY_HEADER,
} from "./split-choice";
export { resolveRevisionBySlugAndVersion } from "./resolve-slug-version";
export { revisionReferences } from "./revision-events";
export { fetchRevision, retrieveRevision, servedAnswer } from "./revisions";
export { versioningRoutes } from "./routes";
export { simpleRoutes } from "./compat/routes";
export { createSimple, editSimple, getSimple } from "./compat/simple-entity";
export { simpleToWire, simpleWireSchema } from "./compat/wire";
export { nothingSchema, orNothing } from "./routes/route-helpers";
export { revisionToWire } from "./wire";
export { restoreRevision } from "./restore";
export { logRevisions, queryRevisions, setRevisionArchived, updateRevision } from "./revisions";
export {
  createVariant,
  forkVariant,
  insertVariant,
  getVariant,
  queryVariants,
  setVariantArchived,
  updateVariant,
} from "./variants";
export { setArtifactArchived, updateArtifact } from "./artifacts";
export { deployMessage, restoreMessage, revisionNames, type RevisionNames } from "./automatic-messages";
export { revisionCacheFor, type RevisionCacheStats } from "./cache/revision-cache";
export { listenForVersioningChanges } from "./cache/change-tags";
export { artifactToWire, variantToWire } from "./wire";
export { latestRevisionOrNull } from "./lookup";
export { scopeOf, refsOf, requestSchemas, responseSchemas } from "./routes";
export {
  activeArtifacts,
  artifactNames,
  hasRevisionData,
  lockVariantRow,
  revisionsOfVariant,
  variantSlugs,
  type ArtifactName,
} from "./readers";
export { queryArtifactsWithHeads, type ArtifactWithHead, type HeadRevision } from "./artifact-heads";
export {
  findTestcases,
  getTestcase,
  queryTestcases,
  upsertTestcases,
  type TestcaseQuery,
  type TestcaseRecord,
} from "./testcases";
