import type { LoadOptions } from "./benchmark";
import { measure, type Measurement } from "./measure";
import type { NextServer } from "./next-server";

/** The framework's own floor: no auth, no database round trip (`npm run bench -- http-floor`). */
export const FLOOR_PATH = "/api/health";

/**
 * Measures `GET /api/health` on a running server. Benchmarks of other endpoints call this in the
 * same run, on the same server, and report their figures as ratios to it.
 */
export function measureHttpFloor(
  server: NextServer,
  load: Pick<LoadOptions, "connections" | "durationS" | "warmupS">,
): Promise<Measurement> {
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

export interface FloorComparison {
  requests_per_sec: number;
  latency_ms: { p50: number; p99: number };
  failures: number;
  floor_requests_per_sec: number;
  /** Median over the rounds of (figure / floor measured right before it). */
  ratio_to_floor: number;
  ratios_per_round: number[];
  /** Highest over lowest round ratio: how noisy the machine was while this was measured. */
  ratio_spread: number;
  /**
   * Server CPU per request (medians of the rounds), where both sides were measured with their
   * process: the floor's over the figure's is the share of the floor's cost efficiency kept, the
   * same reading as `ratio_to_floor` and far less moved by other work on the machine.
   */
  cpu_ms_per_request?: number;
  floor_cpu_ms_per_request?: number;
  cpu_ratio_to_floor?: number;
}

export type Timed = (timing: { durationS: number; warmupS: number }) => Promise<Measurement>;

/**
 * Measures `target` against `floor` (bench/floor-server/, the minimal server doing the same
 * query and writing the same bytes): `rounds` times a floor run and then a target run, each of
 * `durationS`, so both sides of every ratio see the same machine. Warm-up runs only before the
 * first round. Rates are means over the rounds, latencies medians of the rounds' percentiles, and
 * the ratio the median of the rounds' ratios.
 */
export async function measureAgainstFloor(
  floorRun: Timed,
  load: Pick<LoadOptions, "rounds" | "durationS" | "warmupS">,
  target: Timed,
  floors: Measurement[] = [],
): Promise<FloorComparison> {
  const rounds: { floor: Measurement; figure: Measurement }[] = [];
  for (let round = 0; round < load.rounds; round++) {
    const timing = { durationS: load.durationS, warmupS: round === 0 ? load.warmupS : 0 };
    const floor = await floorRun(timing);
    floors.push(floor);
    rounds.push({ floor, figure: await target(timing) });
  }
  const ratios = rounds.map((r) => round3(r.figure.requests_per_sec / r.floor.requests_per_sec));
  return {
    requests_per_sec: round3(mean(rounds.map((r) => r.figure.requests_per_sec))),
    latency_ms: {
      p50: median(rounds.map((r) => r.figure.latency_ms.p50)),
      p99: median(rounds.map((r) => r.figure.latency_ms.p99)),
    },
    failures: rounds.reduce((sum, r) => sum + r.figure.failures, 0),
    floor_requests_per_sec: round3(mean(rounds.map((r) => r.floor.requests_per_sec))),
    ratio_to_floor: median(ratios),
    ratios_per_round: ratios,
    ratio_spread: round3(Math.max(...ratios) / Math.min(...ratios)),
    ...cpuComparison(rounds),
  };
}

function cpuComparison(rounds: { floor: Measurement; figure: Measurement }[]) {
  const figure = rounds.map((r) => r.figure.server_cpu_ms_per_request);
  const floor = rounds.map((r) => r.floor.server_cpu_ms_per_request);
  if (figure.includes(undefined) || floor.includes(undefined)) return {};
  const cpu = median(figure as number[]);
  const floorCpu = median(floor as number[]);
  return {
    cpu_ms_per_request: round3(cpu),
    floor_cpu_ms_per_request: round3(floorCpu),
    cpu_ratio_to_floor: round3(floorCpu / cpu),
  };
}

export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : round3((sorted[mid - 1] + sorted[mid]) / 2);
}
