import { isAppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { keepaliveStream } from "@/server/streams";
import type { DomainSpec } from "../domain-spec";
import type { Scope } from "../records";
import type { RetrieveRefs } from "../references";
import { retrieveRevision } from "../revisions";
import { dependencies } from "./cached-retrieval";
import { revisionCacheFor, type Retrieval } from "./revision-cache";

export const WATCH_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

export interface WatchOptions {
  /** The revision id the client saw last (`Last-Event-ID`): not sent again. */
  lastEventId?: string;
  signal: AbortSignal;
  /** The sticky key of a split environment: the watcher follows the arm it chooses. */
  splitKey?: string;
  /** The body a retrieve answers for a resolution, sent as each event's data. */
  serialize(found: Retrieval): unknown;
}

/**
 * `GET /api/<domain>/revisions/watch`: the revision the references resolve to now, then each new
 * one, as SSE events (`id` = the revision id, `event: revision`, `data` = what a retrieve answers).
 * Resolved again when a change names one of the answer's tags, or when changes may have been
 * missed (the listener was lost); an answer that did not move sends nothing. A reference that stops
 * resolving sends `event: error` with the error body and the watch goes on. A first resolution
 * that fails is the request's error (404, 400), before any event. Each resolution is a retrieve
 * (through the cache), and writes its retrieved event like one.
 */
export async function watchRevision(
  app: AppContext,
  scope: Scope,
  spec: DomainSpec,
  refs: RetrieveRefs,
  options: WatchOptions,
): Promise<Response> {
  const cache = revisionCacheFor(app);
  const resolve = () => retrieveRevision(app.db, scope, spec, refs, { cache, splitKey: options.splitKey });
  let current = await resolve();
  let tags = new Set(dependencies(scope.projectId, spec.keys, refs, current));
  let lastSent = options.lastEventId;
  let unsubscribe = () => {};

  const events = new ReadableStream<string>({
    start(controller) {
      const send = (found: Retrieval) => {
        if (found.revision.id === lastSent) return;
        lastSent = found.revision.id;
        controller.enqueue(
          `id: ${found.revision.id}\nevent: revision\ndata: ${JSON.stringify(options.serialize(found))}\n\n`,
        );
      };
      let running: Promise<void> | undefined;
      let again = false;
      // One resolution at a time; changes during one ask for one more.
      const refresh = () => {
        if (running) {
          again = true;
          return;
        }
        running = (async () => {
          do {
            again = false;
            try {
              current = await resolve();
              tags = new Set(dependencies(scope.projectId, spec.keys, refs, current));
              send(current);
            } catch (error) {
              if (!isAppError(error) || error.status >= 500)
                logger.error({ err: error }, "revision watch could not resolve");
              const body = isAppError(error)
                ? { detail: error.message, code: error.code }
                : { detail: "Internal server error", code: "internal_error" };
              controller.enqueue(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
            }
          } while (again && !options.signal.aborted);
        })().finally(() => (running = undefined));
      };
      unsubscribe = cache.subscribe((changed) => {
        if (changed === null || changed.some((tag) => tags.has(tag))) refresh();
      });
      options.signal.addEventListener("abort", () => {
        unsubscribe();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
      send(current);
    },
    cancel() {
      unsubscribe();
    },
  });
  const body = events
    .pipeThrough(keepaliveStream(app.config.revisionCache.watchKeepaliveMs))
    .pipeThrough(new TextEncoderStream());
  return new Response(body, { status: 200, headers: WATCH_HEADERS });
}
