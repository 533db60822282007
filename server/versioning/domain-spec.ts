import type { ZodRawShape } from "zod";
import type { Database, Executor, Transaction } from "@/server/db";
import type { DomainKeys } from "./domains";
import type { ArtifactRecord, RevisionRecord, VariantRecord } from "./records";

export interface CommitContext {
  tx: Transaction;
  projectId: string;
  userId: string;
  artifact: ArtifactRecord;
  variant: VariantRecord;
  /** The variant's newest revision, read under the commit's row lock (on demand: most domains never need it). */
  previous(): Promise<RevisionRecord | undefined>;
}

export interface CommitPayload {
  data?: Record<string, unknown>;
  /**
   * Environments only: `set` and `remove` applied to the previous revision's references; `splits`
   * sets (an array) or ends (`null`) a key's split.
   */
  delta?: { set?: Record<string, unknown>; remove?: string[]; splits?: Record<string, unknown[] | null> };
  /** The compat API's create form (`POST /revisions/`): only a variant without revisions takes it. */
  initial?: boolean;
}

export interface PreparedCommit {
  data: Record<string, unknown>;
  warnings?: string[];
  /** Extra attributes of the committed event (environments add `state` and `diff`). */
  eventAttributes?: Record<string, unknown>;
}

/** Who retrieved which revision, for a domain whose retrieve options read more (queries run themselves). */
export interface RetrievedContext {
  db: Database;
  projectId: string;
  userId: string;
  revisionId: string;
}

/** A retrieved revision's data as a domain's retrieve options shaped it, and the paging state beside it. */
export interface Shaped {
  data: Record<string, unknown>;
  windowing?: { next: string };
}

/** An edit of an artifact's header, before it is written. */
export interface ArtifactEditContext {
  db: Executor;
  projectId: string;
  userId: string;
  artifact: ArtifactRecord;
}

/** What one domain adds to the shared engine; everything else is the same for all six. */
export interface DomainSpec {
  keys: DomainKeys;
  acceptsDelta?: boolean;
  /**
   * The top-level keys a revision's `data` may hold (the compat API's per-domain data model plus
   * what this service stores beside it); any other is refused at commit (data-keys.ts).
   */
  dataKeys?: readonly string[];
  prepareCommit?(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit>;
  /** Refuses an artifact header edit the caller may not make (environments: only owners guard and unguard). */
  checkArtifactEdit?(ctx: ArtifactEditContext, fields: { flags?: Record<string, boolean> }): Promise<void>;
  /** Options a retrieve of this domain takes besides the references (testsets: `include_testcases`, ...). */
  retrieveOptions?: ZodRawShape;
  /**
   * The retrieved revision's data as those options shape it, and paging state to return beside it
   * (queries run themselves here, so it may read the database as the caller).
   */
  shapeRetrieved?(
    data: Record<string, unknown>,
    options: Record<string, unknown>,
    retrieved: RetrievedContext,
  ): Shaped | Promise<Shaped>;
}
