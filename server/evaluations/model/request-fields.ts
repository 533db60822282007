import { z } from "zod";
import { windowingFields } from "@/server/core/windowing";

/**
 * Evaluation request bodies are strict: a key no route reads is a 422 naming it and its path, so
 * a misspelled option is never dropped without a word. The reference implementation's request
 * models ignore keys they do not declare, and its clients send some back that mean nothing to a
 * write; this is the one list of those taken and dropped, each with why (the reference drops them
 * too). Beside them, an edit may echo what it cannot change: a scenario's or a queue's `run_id`
 * (a different one is refused: `moved-to-run.ts`) and a simple evaluation's `data.status` (start,
 * stop and close change it). Keys the reference reads but this service does not implement are
 * refused where they are declared, with a message saying so (`flags.is_cached: true`, a simple
 * queue's `status` other than running).
 */
export const IGNORED_KEYS = {
  /** Every record the reference answers carries them; an edit echoing the record it read sends them back. */
  echo: {
    version: 'the schema version, always "2025-07-14"; the reference overwrites it on every write',
    created_at: "lifecycle, set by the server",
    updated_at: "lifecycle, set by the server",
    deleted_at: "lifecycle, set by the server",
    created_by_id: "lifecycle, set by the server",
    updated_by_id: "lifecycle, set by the server",
    deleted_by_id: "lifecycle, set by the server",
  },
  /** A create (or an upsert on its natural key) of a record read elsewhere: the reference's create models have no id. */
  createdId: { id: "a new record's id is minted by the server; an upsert is keyed on its natural key" },
  /** Run flags the server derives from the steps and the default queue; the reference overwrites a planted value. */
  derivedRunFlags: Object.fromEntries(
    [
      "is_queue",
      "has_queries",
      "has_testsets",
      "has_traces",
      "has_testcases",
      "has_evaluators",
      "has_custom",
      "has_human",
      "has_auto",
    ].map((flag) => [flag, "derived from the steps (is_queue: from the default queue)"]),
  ),
  /** A simple queue's flags are derived: `is_sequential` from `data.settings`, `is_default` from having no scoping. */
  derivedQueueFlags: {
    is_default: "derived: a queue without assignments, step keys or settings is its run's default",
    is_sequential: "derived from data.settings",
  },
  /** The reference's web client sends a result's span id; the reference stores none (a cell holds a trace). */
  resultSpanId: { span_id: "a cell links a trace, not a span" },
  /** The reference's windowing buckets and samples tracing queries; its evaluation queries ignore both. */
  windowing: { interval: "buckets tracing analytics only", rate: "samples tracing queries only" },
  /** What this service answers beside the reference's fields, read back by an edit or an upsert: read-only. */
  simpleEvaluationEcho: { progress: "read-only: computed from the cells" },
  resultDataEcho: Object.fromEntries(
    ["latency_ms", "tokens", "cost_usd", "attempts"].map((key) => [key, "read-only: measured when the cell ran"]),
  ),
} as const;

type Group = Record<string, string>;

/**
 * A strict request object: `shape` is read, the keys of `ignored` are taken and dropped (never
 * reaching the handler), any other key is a 422. Shape keys win over ignored ones of the same name.
 */
export function requestObject<S extends z.ZodRawShape>(shape: S, ...ignored: Group[]) {
  const dropped = ignored.flatMap((group) => Object.keys(group)).filter((key) => !(key in shape));
  const accepted = Object.fromEntries(
    ignored.flatMap((group) =>
      Object.entries(group).map(([key, why]) => [key, z.unknown().optional().describe(`Ignored: ${why}.`)]),
    ),
  );
  return z.strictObject({ ...accepted, ...shape }).transform((value) => {
    const out: Record<string, unknown> = { ...value };
    for (const key of dropped) delete out[key];
    return out as z.output<z.ZodObject<S, z.core.$strict>>;
  });
}

/** Windowing of the evaluation lists: pages of up to 10,000 rows; the reference's tracing-only keys dropped. */
export const evaluationWindowing = z
  .strictObject({
    ...windowingFields(10_000),
    interval: z.number().int().min(1).nullish().describe(`Ignored: ${IGNORED_KEYS.windowing.interval}.`),
    rate: z.number().min(0).max(1).nullish().describe(`Ignored: ${IGNORED_KEYS.windowing.rate}.`),
  })
  .transform(({ interval: _interval, rate: _rate, ...paging }) => paging)
  .nullish();

const flag = z.boolean().nullish();

/** A run's flags as a caller sets them; the derived ones are taken and dropped, `is_cached` is refused. */
export const runFlagsInput = requestObject(
  {
    is_live: flag,
    is_active: flag,
    is_closed: flag,
    is_split: flag,
    is_cached: z
      .literal(false, {
        error: "is_cached (reusing application traces by hash) is not supported here; leave it out or false",
      })
      .nullish(),
  },
  IGNORED_KEYS.derivedRunFlags,
);

/** Flags to filter by, of these names; a null one filters nothing. */
export function flagsFilter(names: string[]) {
  return z
    .strictObject(Object.fromEntries(names.map((name) => [name, flag])))
    .transform((flags) => Object.fromEntries(Object.entries(flags).filter(([, value]) => value != null)));
}

/** Run flags to filter by: every flag a run carries, derived ones included. */
export const runFlagsFilter = flagsFilter([
  "is_live",
  "is_active",
  "is_closed",
  "is_cached",
  "is_split",
  ...Object.keys(IGNORED_KEYS.derivedRunFlags),
]);
