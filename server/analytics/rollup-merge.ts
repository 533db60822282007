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

/** One entry of jsonb's text form of a map: the key (JSON-escaped) and its value (numeric_out's digits, or null). */
const STORED_ENTRY = /"((?:[^"\\]|\\.)*)": ([^,}]*)/g;

/** A decimal sum, from the stored digits it starts as. */
const big = (sum: Big | string): Big => (typeof sum === "string" ? new Big(sum) : sum);

/** A map's sums while they are added: doubles for integers, decimals for the rest. */
class MapSum {
  /**
   * The one map added so far, as parsed, when all its values are safe integers: most cells of a
   * query from narrow day rows are one row, whose maps are then their own sums, copied nowhere.
   */
  private only?: Record<string, number>;
  private readonly exact = new Map<string, number>();
  /** A key's decimal sum; its stored digits while it has only one (most keys of narrow day rows' cells), read as a double once. */
  private decimal?: Map<string, Big | string>;

  addDecimal(key: string, digits: string): void {
    this.decimal ??= new Map();
    const sum = this.decimal.get(key);
    this.decimal.set(key, sum === undefined ? digits : big(sum).plus(digits));
    if (!this.exact.has(key)) this.exact.set(key, 0);
  }

  /** Adds a stored map's text. */
  add(text: string, decimalsOnly: boolean): void {
    if (text.length <= 2) return;
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
      if (value !== "null") this.addDecimal(key.includes("\\") ? (JSON.parse(`"${key}"`) as string) : key, value);
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
      // One stored value read as a double is the decimal rounded once, as Big's digits would be.
      const value = decimal === undefined ? v : Number(v === 0 ? decimal.toString() : big(decimal).plus(v).toString());
      if (k === "__proto__")
        Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
      else out[k] = value;
    }
    return out;
  }
}

/** Adds the rows into per bucket (ms) and group key accumulators. */
export function addRollupRows(cells: Map<number, Map<string, Accumulator>>, rows: RollupSumsRow[]): void {
  const sums = new Map<Accumulator, { tokens: MapSum; costs: MapSum }>();
  for (const row of rows) {
    const at = new Date(row.bucket).getTime();
    const byKey = cells.get(at) ?? cells.set(at, new Map()).get(at)!;
    const acc = byKey.get(row.key) ?? byKey.set(row.key, emptyAccumulator()).get(row.key)!;
    for (const name of ROLLUP_SCALARS) addScalar(acc, name, Number(row[name]));
    acc.latency.addText(row.latency);
    acc.ttft.addText(row.ttft);
    let maps = sums.get(acc);
    if (!maps) {
      maps = { tokens: new MapSum(), costs: new MapSum() };
      sums.set(acc, maps);
    }
    maps.tokens.add(row.tokens, false);
    maps.costs.add(row.costs, true);
  }
  for (const [acc, maps] of sums) {
    acc.tokens = maps.tokens.values();
    acc.costs = maps.costs.values();
  }
}
