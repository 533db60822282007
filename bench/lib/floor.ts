import type { LoadOptions } from "./benchmark";
import { measure, type Measurement } from "./measure";
import type { NextServer } from "./next-server";

/** The framework floor: no auth, no database round trip; what any other endpoint is compared to. */
export const FLOOR_PATH = "/api/health";

/**
 * Measures `GET /api/health` on a running server. Benchmarks of other endpoints call this in the
 * same run, on the same server, and report their figures as ratios to it.
 */
export function measureHttpFloor(server: NextServer, load: Pick<LoadOptions, "connections" | "durationS" | "warmupS">): Promise<Measurement> {
  return measure({
    baseUrl: server.baseUrl,
    method: "GET",
    path: FLOOR_PATH,
    connections: load.connections,
    durationS: load.durationS,
    warmupS: load.warmupS,
    expectStatus: 200,
  });
}
