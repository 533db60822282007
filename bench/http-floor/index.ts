/**
 * http-floor: requests/s and latency of `GET /api/health` on a production build (`next start`),
 * the ceiling any API endpoint of this deployment can reach.
 *
 *   npm run bench -- http-floor [--duration 10] [--warmup 3] [--connections 10] [--rebuild | --no-rebuild]
 *
 * Uses a fresh embedded PGlite database, or a fresh database on the server DATABASE_URL names.
 */
import { loadAverage, machine, parseLoadOptions } from "../lib/benchmark";
import { measureHttpFloor } from "../lib/floor";
import { ensureBuild, startNextServer } from "../lib/next-server";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const load = parseLoadOptions(argv);
  const loadBefore = loadAverage();
  await ensureBuild({ rebuild: load.rebuild });
  const server = await startNextServer();
  try {
    const floor = await measureHttpFloor(server, load);
    return {
      benchmark: "http-floor",
      target: floor.target,
      requests_per_sec: floor.requests_per_sec,
      latency_ms: floor.latency_ms,
      connections: floor.connections,
      duration_s: floor.duration_s,
      warmup_s: floor.warmup_s,
      requests_total: floor.requests_total,
      failures: floor.failures,
      database: server.database,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await server.stop();
  }
}
