import { logger } from "@/server/core/logger";
import { rawQuery, type Database, type Executor } from "@/server/db";
import { changeAnnouncerOf, listenForChanges, type ChangeListener } from "@/server/worker";
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
 * What `publishChange` sends, for a writer that sends the notify inside a statement of its own
 * (the commit's head update): the hold is taken here, as `publishChange` takes it.
 */
export function changePayload(projectId: string, tags: string[]): string {
  return `#${heldChange(projectId, tags)}`;
}

/** Takes this process's hold on a change's tags (the project's embed tag added): `<hold id> <tags>`. */
function heldChange(projectId: string, tags: string[]): string {
  const all = [changeTag.embeds(projectId), ...tags];
  return `${holdLocally(all)} ${all.join(" ")}`;
}

/** Announces a change around its transaction: resolves once every process holds its tags. */
export type AnnounceChange = (projectId: string, tags: string[]) => Promise<void>;

/**
 * Runs `work` (a transaction) with a change announced outside it, for a commit whose own NOTIFY
 * would serialize it with every other notifying commit (README.md, "Announced around the
 * commit"). `announce` takes this process's hold and every other process's, through a
 * notification committed before it resolves: awaited before the transaction commits, no process
 * stores an answer read before the commit. Once `work` has settled, committed or rolled back, the
 * change is announced as visible, which drops what it names and releases the holds. Lost (the
 * writer died in between), every hold runs out as a change. Where no announcer exists (PGlite, a
 * pooler nothing listens through) `announce` is undefined and the caller notifies in its
 * transaction (`changePayload`).
 */
export async function withAnnouncedChanges<T>(
  db: Database,
  work: (announce: AnnounceChange | undefined) => Promise<T>,
): Promise<T> {
  const announcer = changeAnnouncerOf(db);
  if (!announcer) return work(undefined);
  const announced: string[] = [];
  try {
    return await work((projectId, tags) => {
      const change = heldChange(projectId, tags);
      announced.push(change);
      return announcer.announce(VERSIONING_CHANNEL, `+${change}`);
    });
  } finally {
    // Not waited for, and it may ride with the next commit's hold: every process holds the tags
    // until it arrives, so none answers the old head from memory meanwhile. Lost, the commit
    // stands and the holds run out on their own.
    for (const change of announced)
      announcer
        .announce(VERSIONING_CHANNEL, `#${change}`, { soon: true })
        .catch((error: unknown) =>
          logger.warn(
            { err: error },
            "a committed change was not announced; caches hold its tags until their hold runs out",
          ),
        );
  }
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
      // A `+` announces a change before its commit: the change itself comes as a `#`.
      if (payload.startsWith("+")) return;
      const tag = payload.split(" ").find((t) => t.startsWith(prefix));
      if (tag) onChange(tag.slice(prefix.length));
    },
    onListening,
    onLost: () => {},
  });
}
