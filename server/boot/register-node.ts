import { getApp, listenOrigin } from "./app";
import { warmUpDevServer } from "./dev-warm-up";
import { backgroundWorkersFor } from "./workers";

/**
 * What instrumentation.ts runs in the Node.js runtime: boot the app (migrations, default
 * account) before the first request, start the background workers in this process unless
 * WORKERS=off, and under `next dev` compile the first pages ahead of the first visit. It lives
 * here, not in instrumentation.ts, because Next.js also compiles that file for the Edge runtime,
 * where a Node.js API in it (process.stdout) is reported as "Ecmascript file had an error".
 */
export async function registerNode(): Promise<void> {
  const { context } = await getApp();
  if (context.config.workers === "in-process") backgroundWorkersFor(context);
  if (process.env.NODE_ENV === "development") {
    void warmUpDevServer(listenOrigin(context.config), (line) => process.stdout.write(`${line}\n`));
  }
}
