import type { AppContext } from "@/server/core/app-context";
import { keepaliveStream } from "@/server/streams";
import { getOptimization } from "./service";
import { isEnded } from "./store";
import type { OptimizationWire } from "./wire";

const HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};
const KEEPALIVE_MS = 15_000;

/**
 * `GET /api/improve/optimizations/{id}/events`: `progress` whenever the progress changes, `round`
 * once per round whose candidates are all scored, `finished` with the whole optimization at its
 * end, then the stream closes. The optimization is read every `pollMs`: its progress is written
 * by whichever worker holds it, in any process, so the row is the one place to follow it from.
 * An unknown id is the request's 404, before any event.
 */
export async function optimizationEvents(
  app: AppContext,
  projectId: string,
  id: string,
  signal: AbortSignal,
  pollMs = 500,
): Promise<Response> {
  let current = await getOptimization(app.db, projectId, id);
  let lastProgress = "";
  let roundsSent = 0;
  const events = new ReadableStream<string>({
    async start(controller) {
      const frame = (event: string, data: unknown) =>
        controller.enqueue(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const send = (o: OptimizationWire) => {
        const progress = JSON.stringify(o.progress);
        if (progress !== lastProgress) {
          lastProgress = progress;
          frame("progress", o.progress);
        }
        for (const round of o.history.slice(roundsSent)) {
          if (round.best_score === undefined) break;
          frame("round", round);
          roundsSent++;
        }
      };
      try {
        while (!signal.aborted) {
          send(current);
          if (isEnded(current.status)) {
            frame("finished", current);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, pollMs));
          current = await getOptimization(app.db, projectId, id);
        }
      } catch (error) {
        frame("error", { detail: (error as Error).message, code: "internal_error" });
      }
      try {
        controller.close();
      } catch {
        // The client went away first.
      }
    },
  });
  const body = events.pipeThrough(keepaliveStream(KEEPALIVE_MS)).pipeThrough(new TextEncoderStream());
  return new Response(body, { status: 200, headers: HEADERS });
}
