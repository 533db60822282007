/**
 * `next dev` compiles a route on its first request: the first page a newcomer opens waited half a
 * minute with nothing said. Once the app has booted, the dev server asks for the first pages
 * itself and says so, then says when the playground answers at once.
 */
const FIRST_PAGES = ["/api/health", "/"];

export async function warmUpDevServer(
  origin: string,
  say: (line: string) => void,
  now: () => number = () => performance.now(),
): Promise<void> {
  const started = now();
  say(`  Compiling the playground's first pages (next dev compiles each route the first time it is asked for)…`);
  for (const path of FIRST_PAGES) {
    try {
      const res = await fetch(new URL(path, origin), { signal: AbortSignal.timeout(300_000) });
      await res.body?.cancel();
      if (res.status >= 500) {
        say(`  ${path} answered ${res.status} while compiling ahead of time: see the error above.`);
        return;
      }
    } catch (error) {
      say(`  Could not compile ${path} ahead of time (${(error as Error).message}); it compiles when first opened.`);
      return;
    }
  }
  say(`  Playground ready at ${origin} (first pages compiled in ${Math.round((now() - started) / 1000)} s).`);
}
