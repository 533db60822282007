/**
 * Next.js start-up hook. Next.js compiles this file for both runtimes; the Node.js work is in
 * server/boot/register-node.ts, imported only when NEXT_RUNTIME is "nodejs" (the condition the
 * bundler resolves at build time, so the Edge compilation never sees Node.js code).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("@/server/boot/register-node");
    await registerNode();
  }
}
