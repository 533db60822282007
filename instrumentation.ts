/** Next.js start-up hook: boot the app (migrations, default account) before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getApp } = await import("@/server/app");
  await getApp();
}
