/** An unsaved edit of one variant's template, kept in the browser until it is committed or discarded. */
export interface StoredDraft {
  /** The revision the draft started from, so a commit made elsewhere meanwhile can be pointed out. */
  baseRevisionId: string;
  baseVersion: string;
  /** The JSON text as typed: a draft with a syntax error survives a reload too. */
  text: string;
  message: string;
  savedAt: string;
}

export interface DraftStore {
  read(variantId: string): StoredDraft | null;
  write(variantId: string, draft: StoredDraft): void;
  clear(variantId: string): void;
}

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const PREFIX = "agent-editor:draft:v1:";

export function draftKey(variantId: string): string {
  return `${PREFIX}${variantId}`;
}

/**
 * Drafts in `storage` (localStorage in the browser). Storage can be missing, full or disabled
 * (private windows, quotas); the editor then works without persistence rather than failing.
 */
export function createDraftStore(storage: StorageLike | null | undefined): DraftStore {
  return {
    read(variantId) {
      try {
        const raw = storage?.getItem(draftKey(variantId));
        return raw ? parseDraft(raw) : null;
      } catch {
        return null;
      }
    },
    write(variantId, draft) {
      try {
        storage?.setItem(draftKey(variantId), JSON.stringify(draft));
      } catch {
        // Quota exceeded or storage disabled: the draft lives on in memory only.
      }
    },
    clear(variantId) {
      try {
        storage?.removeItem(draftKey(variantId));
      } catch {
        // Nothing to clean up if storage is unavailable.
      }
    },
  };
}

function parseDraft(raw: string): StoredDraft | null {
  const value: unknown = JSON.parse(raw);
  if (typeof value !== "object" || value === null) return null;
  const d = value as Record<string, unknown>;
  const strings = ["baseRevisionId", "baseVersion", "text", "savedAt"] as const;
  if (!strings.every((key) => typeof d[key] === "string")) return null;
  return {
    baseRevisionId: d.baseRevisionId as string,
    baseVersion: d.baseVersion as string,
    text: d.text as string,
    message: typeof d.message === "string" ? d.message : "",
    savedAt: d.savedAt as string,
  };
}

/** The browser's localStorage, or null where there is none (server rendering, locked-down browsers). */
export function browserStorage(): StorageLike | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}
