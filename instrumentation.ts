/**
 * Next.js start-up hook: boot the app (migrations, default account) before the first request,
 * then start the background workers in this process unless WORKERS=off. Under `next dev` it then
 * compiles the first pages ahead of the first visit (server/boot/dev-warm-up.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp, listenOrigin } = await import("@/server/boot/app");
  const { backgroundWorkersFor } = await import("@/server/boot/workers");
  const { context } = await getApp();
  if (context.config.workers === "in-process") backgroundWorkersFor(context);
  if (process.env.NODE_ENV === "development") {
    const { warmUpDevServer } = await import("@/server/boot/dev-warm-up");
    void warmUpDevServer(listenOrigin(context.config), (line) => process.stdout.write(`${line}\n`));
  }
}
