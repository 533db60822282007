import { rawQuery, type AfterCommit, type Database, type Executor } from "@/server/db";
import { listenForChanges, type ChangeListener } from "@/server/worker";
import { holdLocally } from "./local-holds";

/** The channel a versioning change is announced on, delivered when its transaction commits. */
export const VERSIONING_CHANNEL = "versioning_changed";

/**
 * What a cached answer depends on and what a change touches, as strings: an answer is dropped
 * when a change names one of its tags. Writers and the cache build them here only.
 */
export const changeTag = {
  /** A revision's header or archive state. */
  revision: (id: string) => `r:${id}`,
  /** A variant's header or archive state. */
  variant: (id: string) => `v:${id}`,
  /** An artifact's header or archive state. */
  artifact: (id: string) => `a:${id}`,
  /** A variant's newest revision (a commit, a deploy to an environment, a fork's first commit). */
  head: (variantId: string) => `h:${variantId}`,
  /** Which variant is an artifact's default (a variant was added). */
  defaultVariant: (artifactId: string) => `d:${artifactId}`,
  /** Whether a variant slug is unambiguous in a domain without naming the artifact. */
  variantSlug: (projectId: string, domain: string, slug: string) => `s:${projectId}/${domain}/${slug}`,
  /** Every answer with embeds resolved: an embed may follow a latest or environment reference anywhere in the project. */
  embeds: (projectId: string) => `e:${projectId}`,
};

/**
 * Announces a change to every process's cache (server/versioning/cache/README.md): a NOTIFY sent
 * in the change's transaction, so it arrives once the change is visible and never for a
 * rollback. The project's embed tag is always added. This process's caches hold the tags until
 * the notification comes back, so the writer reads its own write at once.
 */
export async function publishChange(db: Executor, projectId: string, tags: string[]): Promise<void> {
  await rawQuery(db, `select pg_notify('${VERSIONING_CHANNEL}', $1)`, [changePayload(projectId, tags)]);
}

/**
 * What `publishChange` sends, `#<hold id> <tags>` with the project's embed tag added, for a writer
 * that sends the notify otherwise (in the commit's head update, or after its COMMIT): this
 * process's hold on the tags is taken here.
 */
export function changePayload(projectId: string, tags: string[]): string {
  const all = [changeTag.embeds(projectId), ...tags];
  return `#${holdLocally(all)} ${all.join(" ")}`;
}

/**
 * The NOTIFY of a change (`changePayload`) for `transactionThen` to send in the same write as its
 * transaction's COMMIT, as a transaction of its own: inside it, the NOTIFY would serialize the
 * commit with every other notifying commit (README.md, "Notified after the commit"). With
 * `synchronous_commit` off, it writes no data and need not wait for a flush.
 */
export function notifyChange(payload: string): AfterCommit {
  return {
    text: "select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)",
    params: [VERSIONING_CHANNEL, payload],
  };
}

/**
 * Calls `onChange(projectId)` for each committed versioning change of any project, on any process
 * (a commit, a deploy, an archive, an edit of a header): for those outside the cache that follow
 * what a project deploys (the MCP door's list watch). The project is read from the embed tag every
 * change carries.
 */
export function listenForVersioningChanges(
  db: Database,
  onChange: (projectId: string) => void,
  { onListening = () => {} }: { onListening?: () => void } = {},
): ChangeListener {
  const prefix = changeTag.embeds("");
  return listenForChanges(db, VERSIONING_CHANNEL, {
    onChange: (payload) => {
      const tag = payload.split(" ").find((t) => t.startsWith(prefix));
      if (tag) onChange(tag.slice(prefix.length));
    },
    onListening,
    onLost: () => {},
  });
}
