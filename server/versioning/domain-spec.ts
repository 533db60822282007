import type { ZodRawShape } from "zod";
import type { Database, Transaction } from "@/server/db";
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

/** What one domain adds to the shared engine; everything else is the same for all six. */
export interface DomainSpec {
  keys: DomainKeys;
  acceptsDelta?: boolean;
  prepareCommit?(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit>;
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
