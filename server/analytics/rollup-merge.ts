import Big from "big.js";
import { ROLLUP_SCALARS } from "@/server/tracing";
import { addScalar, emptyAccumulator, type Accumulator } from "./metrics";

/**
 * The roll-up source's sums, added up here rather than in SQL. A query of 90 days by day reads a
 * few thousand roll-up rows, each with maps of a few dozen entries (the latency histogram's bins
 * above all); taking every map apart in SQL (jsonb_each, then a grouping by bucket, key, kind and
 * name) was nearly all of the query's time. Here each row's maps are parsed once (JSON.parse,
 * native) and added key by key.
 *
 * The answer is the one the SQL gave, digit for digit: per bucket, group and key, the exact sum
 * of the stored values (numeric's), rounded once to a double. Counts (histogram bins, tokens)
 * are integers in practice, whose double sums are exact; a value that is not a safe integer,
 * and every cost (numeric in the table: a double would drift), is added as a decimal (big.js).
 */

/** `select` over the facts (factsSql's rollup relation): one row per roll-up row, maps as text. */
export function rollupSumsSql(facts: string): string {
  return `select f.bucket, f.key, ${ROLLUP_SCALARS.map((c) => `f.${c}::float8 as ${c}`).join(", ")},
      f.latency::text as latency, f.ttft::text as ttft, f.tokens::text as tokens, f.costs::text as costs
    from (${facts}) f`;
}

export interface RollupSumsRow {
  bucket: Date | string;
  key: string;
  latency: string;
  ttft: string;
  tokens: string;
  costs: string;
  [scalar: string]: unknown;
}

const MAPS = ["latency", "ttft", "tokens", "costs"] as const;
type MapName = (typeof MAPS)[number];

/** One entry of jsonb's text form of a map: the key (JSON-escaped) and its value (numeric_out's digits, or null). */
const STORED_ENTRY = /"((?:[^"\\]|\\.)*)": ([^,}]*)/g;

/** A map's sums while they are added: doubles for integers, decimals for the rest. */
class MapSum {
  /**
   * The one map added so far, as parsed, when all its values are safe integers: most cells of a
   * query from narrow day rows are one row, whose maps are then their own sums, copied nowhere.
   */
  private only?: Record<string, number>;
  private readonly exact = new Map<string, number>();
  private decimal?: Map<string, Big>;

  addDecimal(key: string, digits: string): void {
    this.decimal ??= new Map();
    const sum = this.decimal.get(key);
    this.decimal.set(key, sum === undefined ? new Big(digits) : sum.plus(digits));
    if (!this.exact.has(key)) this.exact.set(key, 0);
  }

  /** Adds a stored map's text. */
  add(text: string, decimalsOnly: boolean): void {
    if (!decimalsOnly) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      let integers = true;
      let numbers = true;
      for (const k in parsed) {
        const v = parsed[k];
        if (typeof v !== "number") numbers = false;
        else if (!Number.isSafeInteger(v)) integers = false;
      }
      if (integers) {
        if (numbers && this.only === undefined && this.exact.size === 0) {
          this.only = parsed as Record<string, number>;
          return;
        }
        this.spill();
        for (const k in parsed) {
          const v = parsed[k];
          if (typeof v === "number") this.exact.set(k, (this.exact.get(k) ?? 0) + v);
        }
        return;
      }
    }
    this.spill();
    for (const [, key, value] of text.matchAll(STORED_ENTRY))
      if (value !== "null") this.addDecimal(JSON.parse(`"${key}"`) as string, value);
  }

  /** Moves the one map kept as parsed into the sums, before another is added. */
  private spill(): void {
    if (this.only === undefined) return;
    for (const k in this.only) this.exact.set(k, this.only[k]);
    this.only = undefined;
  }

  /** The sums, each rounded once to a double. */
  values(): Record<string, number> {
    if (this.only !== undefined) return this.only;
    const out: Record<string, number> = {};
    for (const [k, v] of this.exact) {
      const decimal = this.decimal?.get(k);
      const value = decimal === undefined ? v : Number(v === 0 ? decimal.toString() : decimal.plus(v).toString());
      if (k === "__proto__")
        Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
      else out[k] = value;
    }
    return out;
  }
}

/** Adds the rows into per bucket (ms) and group key accumulators. */
export function addRollupRows(cells: Map<number, Map<string, Accumulator>>, rows: RollupSumsRow[]): void {
  const sums = new Map<Accumulator, Record<MapName, MapSum>>();
  for (const row of rows) {
    const at = new Date(row.bucket).getTime();
    const byKey = cells.get(at) ?? cells.set(at, new Map()).get(at)!;
    const acc = byKey.get(row.key) ?? byKey.set(row.key, emptyAccumulator()).get(row.key)!;
    for (const name of ROLLUP_SCALARS) addScalar(acc, name, Number(row[name]));
    let maps = sums.get(acc);
    if (!maps) {
      maps = { latency: new MapSum(), ttft: new MapSum(), tokens: new MapSum(), costs: new MapSum() };
      sums.set(acc, maps);
    }
    for (const name of MAPS) maps[name].add(row[name], name === "costs");
  }
  for (const [acc, maps] of sums) for (const name of MAPS) acc[name] = maps[name].values();
}
