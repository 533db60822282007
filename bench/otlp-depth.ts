/**
 * `npm run bench -- otlp-depth [--levels 20000] [--rounds 9]`: how long the OTLP decoder takes
 * to refuse a body whose span attribute nests `levels` kvlist values (400 `too_deep`), in both
 * encodings, beside the time to decode a valid body nested 25 levels. The refusal blocks the
 * event loop for its whole duration, so this is also how long health checks wait.
 */
import { decodeOtlp, type OtlpEncoding } from "@/server/tracing/otlp/decode";
import { deepOtlpJson, deepOtlpProtobuf } from "../tests/helpers/deep-otlp";
import { loadAverage, log, machine } from "./lib/benchmark";

/** Kvlist levels of the valid body: four JSON levels each, under the limit of 128. */
const VALID_LEVELS = 25;

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(3));
}

/** Milliseconds per decode (the refusal included), median of `rounds`. */
function time(body: Buffer, encoding: OtlpEncoding, rounds: number): { ms: number; refused: string | null } {
  const samples: number[] = [];
  let refused: string | null = null;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    try {
      decodeOtlp(body, encoding);
      refused = null;
    } catch (error) {
      refused = (error as { code?: string }).code ?? String(error);
    }
    samples.push(performance.now() - start);
  }
  return { ms: median(samples), refused };
}

export async function run(argv: string[]) {
  const levels = flag(argv, "levels", 20_000);
  const rounds = flag(argv, "rounds", 9);
  const bodies = {
    protobuf: { deep: deepOtlpProtobuf(levels), shallow: deepOtlpProtobuf(VALID_LEVELS) },
    json: { deep: Buffer.from(deepOtlpJson(levels)), shallow: Buffer.from(deepOtlpJson(VALID_LEVELS)) },
  };
  const results: Record<string, unknown> = {};
  for (const encoding of ["protobuf", "json"] as const) {
    log(`${encoding}: ${levels} levels`);
    const deep = time(bodies[encoding].deep, encoding, rounds);
    const shallow = time(bodies[encoding].shallow, encoding, rounds);
    results[encoding] = {
      body_bytes: bodies[encoding].deep.length,
      refusal_ms: deep.ms,
      refused_with: deep.refused,
      valid_ms: shallow.ms,
      valid_bytes: bodies[encoding].shallow.length,
      valid_refused_with: shallow.refused,
    };
  }
  return { benchmark: "otlp-depth", levels, rounds, ...results, load_average: loadAverage(), machine: machine() };
}
