/**
 * Next.js start-up hook: boot the app (migrations, default account) before the first request,
 * then start the background workers in this process unless WORKERS=off.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp } = await import("@/server/boot/app");
  const { backgroundWorkersFor } = await import("@/server/boot/workers");
  const { context } = await getApp();
  if (context.config.workers === "in-process") backgroundWorkersFor(context);
}
