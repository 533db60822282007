import { binValue } from "@/server/tracing";

/**
 * A log histogram (`{bin: count}` in the roll-ups, bins growing by 2%) held as two arrays in
 * ascending bin order. A 90-day query by day adds and reads hundreds of histograms of a hundred
 * bins or more: kept as objects keyed by bin, every pass made a string of every key and every
 * percentile sorted them, most of the query's time. Here adding one histogram to another is a
 * walk of two sorted arrays (in place once the bins are there, as they are after a total's first
 * few cells) and the percentiles one walk up. Bins are whole numbers (tracing's `binSql`, an int);
 * counts are whole numbers too (spans counted in and out), so their sums as doubles are exact in
 * any order.
 */
export class Histogram {
  private bins: number[] = [];
  private counts: number[] = [];

  /** Adds a count to one bin (the rows of a scan, one bin at a time in any order); a bin that is not a whole number counts nowhere. */
  add(bin: number, count: number): void {
    if (!Number.isInteger(bin)) return;
    const { bins, counts } = this;
    let lo = 0;
    let hi = bins.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bins[mid] < bin) lo = mid + 1;
      else hi = mid;
    }
    if (bins[lo] === bin) counts[lo] += count;
    else {
      bins.splice(lo, 0, bin);
      counts.splice(lo, 0, count);
    }
  }

  /** Adds another histogram's counts into this one. */
  addAll(other: Histogram): void {
    const a = this.bins;
    const b = other.bins;
    if (b.length === 0) return;
    if (a.length === 0) {
      this.bins = b.slice();
      this.counts = other.counts.slice();
      return;
    }
    const counts = this.counts;
    const theirs = other.counts;
    // In place while every bin of `other` is here already (no allocation); from the first that is
    // not, the rest merged into new arrays.
    let i = 0;
    let j = 0;
    for (; j < b.length; j++) {
      while (i < a.length && a[i] < b[j]) i++;
      if (i === a.length || a[i] !== b[j]) break;
      counts[i] += theirs[j];
    }
    if (j === b.length) return;
    const bins = a.slice(0, i);
    const merged = counts.slice(0, i);
    while (i < a.length || j < b.length) {
      if (j === b.length || (i < a.length && a[i] < b[j])) {
        bins.push(a[i]);
        merged.push(counts[i++]);
      } else if (i === a.length || b[j] < a[i]) {
        bins.push(b[j]);
        merged.push(theirs[j++]);
      } else {
        bins.push(a[i]);
        merged.push(counts[i++] + theirs[j++]);
      }
    }
    this.bins = bins;
    this.counts = merged;
  }

  /** Adds a stored histogram, in jsonb's text form (`{"300": 2, "301": 1}`). */
  addText(text: string): void {
    if (text.length <= 2) return;
    if (this.bins.length === 0) this.parse(text);
    else {
      const other = new Histogram();
      other.parse(text);
      this.addAll(other);
    }
  }

  /**
   * For each of `qs` (ascending), the representative value of the bin holding its rank among the
   * positive counts, within 1% of the exact value; 0 for an empty histogram (a bin a replaced
   * span emptied counts for nothing).
   */
  quantiles(qs: readonly number[]): number[] {
    const { bins, counts } = this;
    let total = 0;
    for (let k = 0; k < counts.length; k++) if (counts[k] > 0) total += counts[k];
    if (total === 0) return qs.map(() => 0);
    let i = 0;
    while (!(counts[i] > 0)) i++;
    let seen = counts[i];
    const out: number[] = [];
    for (const q of qs) {
      const rank = Math.max(1, Math.ceil(q * total));
      while (seen < rank) {
        let next = i + 1;
        while (next < counts.length && !(counts[next] > 0)) next++;
        if (next === counts.length) break;
        i = next;
        seen += counts[i];
      }
      out.push(round(binValue(bins[i])));
    }
    return out;
  }

  /**
   * Reads jsonb's text of a map of whole numbers by hand (no object, no key strings). jsonb orders
   * keys by length, then bytes: the bins from 0 up come ascending, the negative ones (below 1 ms)
   * descending. Anything else (a fraction, a key that is not a bin) goes the general way.
   */
  private parse(text: string): void {
    const bins = this.bins;
    const counts = this.counts;
    const negativeBins: number[] = [];
    const negativeCounts: number[] = [];
    let i = 1;
    for (;;) {
      let c = text.charCodeAt(i);
      if (c === 125 /* } */) break;
      if (c === 44 /* , */ && text.charCodeAt(i + 1) === 32) c = text.charCodeAt((i += 2));
      if (c !== 34 /* " */) return this.parseGeneral(text);
      c = text.charCodeAt(++i);
      const negative = c === 45; /* - */
      if (negative) c = text.charCodeAt(++i);
      let bin = 0;
      const binStart = i;
      for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)) bin = bin * 10 + c - 48;
      const plainBin = c === 34 && i > binStart && i - binStart <= 9 && !(negative && bin === 0);
      if (!plainBin || text.charCodeAt(i + 1) !== 58 /* : */ || text.charCodeAt(i + 2) !== 32)
        return this.parseGeneral(text);
      i += 3;
      c = text.charCodeAt(i);
      const negativeCount = c === 45;
      if (negativeCount) c = text.charCodeAt(++i);
      let count = 0;
      const countStart = i;
      for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)) count = count * 10 + c - 48;
      if ((c !== 44 && c !== 125) || i === countStart || i - countStart > 15) return this.parseGeneral(text);
      if (negativeCount) count = -count;
      if (negative) {
        if (negativeBins.length > 0 && -bin >= negativeBins[negativeBins.length - 1]) return this.parseGeneral(text);
        negativeBins.push(-bin);
        negativeCounts.push(count);
      } else {
        if (bins.length > 0 && bin <= bins[bins.length - 1]) return this.parseGeneral(text);
        bins.push(bin);
        counts.push(count);
      }
    }
    if (negativeBins.length > 0) {
      this.bins = negativeBins.reverse().concat(bins);
      this.counts = negativeCounts.reverse().concat(counts);
    }
  }

  private parseGeneral(text: string): void {
    this.bins = [];
    this.counts = [];
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const key in parsed) {
      const count = parsed[key];
      if (typeof count === "number") this.add(Number(key), count);
    }
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
