import type { ZodRawShape } from "zod";
import type { Transaction } from "@/server/db";
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

/** What one domain adds to the shared engine; everything else is the same for all six. */
export interface DomainSpec {
  keys: DomainKeys;
  acceptsDelta?: boolean;
  prepareCommit?(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit>;
  /** Options a retrieve of this domain takes besides the references (testsets: `include_testcases`, ...). */
  retrieveOptions?: ZodRawShape;
  /** The retrieved revision's data as those options shape it, and paging state to return beside it. */
  shapeRetrieved?(
    data: Record<string, unknown>,
    options: Record<string, unknown>,
  ): { data: Record<string, unknown>; windowing?: { next: string } };
}
