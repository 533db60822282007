/**
 * One HTTP load measurement with autocannon: a warm-up run that is discarded, then a measured
 * run. Latency percentiles come from every response's own timing (sub-millisecond), not from
 * autocannon's whole-millisecond histogram.
 */
import autocannon from "autocannon";
import { log } from "./benchmark";
import { processCpuMs } from "./process-cpu";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestSpec {
  method?: HttpMethod;
  /** Path and query, e.g. `/api/health`. */
  path?: string;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else is sent as JSON with its content-type. */
  body?: unknown;
}

export interface MeasureOptions extends RequestSpec {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  connections?: number;
  /** Measured seconds. */
  durationS?: number;
  /** Seconds of the same load run first and discarded (JIT, caches, connection pools). */
  warmupS?: number;
  /**
   * Called for every request with a counter that increases across connections and across the
   * warm-up and measured runs; the fields it returns replace the defaults above (headers are merged).
   * For requests that must differ: unique slugs, rotating ids.
   */
  next?: (i: number) => RequestSpec;
  /** Statuses that count as success; default any 2xx. */
  expectStatus?: number | number[];
  /** Share of requests allowed to fail (other status, socket error, timeout) before measure() throws; default 0. */
  maxFailureRatio?: number;
  /** Per-request timeout in seconds; default 10. */
  timeoutS?: number;
  /** The server's process: its CPU time per request in the measured run is reported. */
  serverPid?: number;
}

export interface Measurement {
  /** `GET /api/health` */
  target: string;
  requests_per_sec: number;
  latency_ms: { p50: number; p90: number; p99: number; mean: number; max: number };
  /** Successful responses in the measured run. */
  requests_total: number;
  failures: number;
  status_counts: Record<string, number>;
  errors: number;
  timeouts: number;
  connections: number;
  duration_s: number;
  warmup_s: number;
  /** The server process's CPU time (user + system) per successful request; set with `serverPid`. */
  server_cpu_ms_per_request?: number;
}

interface RunStats {
  result: autocannon.Result;
  latencies: number[];
  ok: number;
  bad: number;
}

function encodeBody(spec: RequestSpec): { body?: string | Buffer; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.body === undefined || spec.body === null) return { headers };
  if (typeof spec.body === "string" || Buffer.isBuffer(spec.body)) return { body: spec.body, headers };
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
  if (!hasType) headers["content-type"] = "application/json";
  return { body: JSON.stringify(spec.body), headers };
}

function runOnce(options: MeasureOptions, durationS: number, counter: { i: number }): Promise<RunStats> {
  const method = options.method ?? "GET";
  const defaults = encodeBody(options);
  const accepts = (status: number) =>
    options.expectStatus === undefined
      ? status >= 200 && status < 300
      : Array.isArray(options.expectStatus)
        ? options.expectStatus.includes(status)
        : options.expectStatus === status;

  const request: autocannon.Request = {
    method,
    path: options.path ?? "/",
    headers: defaults.headers,
    body: defaults.body,
  };
  const generate = options.next;
  if (generate) {
    request.setupRequest = (req) => {
      const spec = generate(counter.i++);
      const encoded = encodeBody({ headers: spec.headers, body: spec.body });
      return {
        ...req,
        method: spec.method ?? req.method,
        path: spec.path ?? req.path,
        headers: { ...req.headers, ...encoded.headers },
        body: encoded.body ?? req.body,
      };
    };
  }

  const latencies: number[] = [];
  let ok = 0;
  let bad = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections ?? 10,
        duration: durationS,
        timeout: options.timeoutS ?? 10,
        requests: [request],
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, ok, bad })),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (accepts(statusCode)) {
        ok++;
        latencies.push(responseTime);
      } else {
        bad++;
      }
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Warm up, then measure `method path` on `baseUrl`; throws when more requests fail than allowed. */
export async function measure(options: MeasureOptions): Promise<Measurement> {
  const connections = options.connections ?? 10;
  const durationS = options.durationS ?? 10;
  const warmupS = options.warmupS ?? 3;
  const target = `${options.method ?? "GET"} ${options.path ?? "/"}`;
  const counter = { i: 0 };

  if (warmupS > 0) {
    log(`${target}: warming up ${warmupS} s with ${connections} connections ...`);
    await runOnce(options, warmupS, counter);
  }
  log(`${target}: measuring ${durationS} s with ${connections} connections ...`);
  const cpuBefore = options.serverPid === undefined ? 0 : processCpuMs(options.serverPid);
  const { result, latencies, ok, bad } = await runOnce(options, durationS, counter);
  const cpuMs = options.serverPid === undefined ? undefined : processCpuMs(options.serverPid) - cpuBefore;

  const failures = bad + result.errors;
  const attempts = ok + failures;
  const status_counts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  if (ok === 0 || failures > (options.maxFailureRatio ?? 0) * attempts) {
    throw new Error(
      `${target}: ${failures} of ${attempts} requests failed (statuses ${JSON.stringify(status_counts)}, ` +
        `${result.errors} socket errors, ${result.timeouts} timeouts)`,
    );
  }

  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, v) => sum + v, 0) / latencies.length;
  return {
    target,
    requests_per_sec: round(ok / result.duration, 1),
    latency_ms: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      mean: round(mean),
      max: round(latencies[latencies.length - 1]),
    },
    requests_total: ok,
    failures,
    status_counts,
    errors: result.errors,
    timeouts: result.timeouts,
    connections,
    duration_s: result.duration,
    warmup_s: warmupS,
    ...(cpuMs !== undefined && { server_cpu_ms_per_request: round(cpuMs / ok, 4) }),
  };
}
