import { BadRequestError } from "@/server/core/errors";
interface CompiledPath<T> {
  segments: string[];
  value: T;
}

export interface PathMatch<T> {
  value: T;
  params: Record<string, string>;
}

function split(path: string): string[] {
  return path.split("/").filter(Boolean);
}

const RECENT_PATHS = 1024;

const isParam = (segment: string) => segment.startsWith("{") && segment.endsWith("}");

/**
 * Matches `/api/keys/{id}/revoke`-style templates. A literal segment beats a parameter at the
 * same position, so `/variants/query` wins over `/{id}` regardless of registration order.
 *
 * Templates are kept in buckets by segment count and second segment (`/api/<area>/...`), so a
 * request is compared with its area's few templates rather than every route of the service.
 */
export class PathMatcher<T> {
  private readonly buckets = new Map<string, CompiledPath<T>[]>();
  /**
   * Recent paths and their matches (a pure function of the path), so a hot route skips the
   * comparisons and decoding; bounded, oldest out first. Shared matches are frozen.
   */
  private readonly recent = new Map<string, readonly PathMatch<T>[]>();

  add(template: string, value: T): void {
    const segments = split(template);
    const key = bucketKey(segments.length, segments[1] !== undefined && isParam(segments[1]) ? "*" : segments[1]);
    const bucket = this.buckets.get(key) ?? [];
    bucket.push({ segments, value });
    bucket.sort((a, b) => compareSpecificity(a.segments, b.segments));
    this.buckets.set(key, bucket);
  }

  /** Every entry whose template matches, most specific first. */
  matchAll(path: string): readonly PathMatch<T>[] {
    const known = this.recent.get(path);
    if (known) return known;
    const parts = split(path);
    const own = this.buckets.get(bucketKey(parts.length, parts[1])) ?? [];
    const wildcard = this.buckets.get(bucketKey(parts.length, "*")) ?? [];
    const candidates =
      wildcard.length === 0 ? own : [...own, ...wildcard].sort((a, b) => compareSpecificity(a.segments, b.segments));
    const out: PathMatch<T>[] = [];
    for (const entry of candidates) {
      if (entry.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = entry.segments[i];
        if (isParam(seg)) params[seg.slice(1, -1)] = decodeSegment(parts[i]);
        else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (ok) out.push({ value: entry.value, params });
    }
    if (this.recent.size >= RECENT_PATHS) this.recent.delete(this.recent.keys().next().value!);
    for (const m of out) Object.freeze(Object.freeze(m).params);
    this.recent.set(path, Object.freeze(out));
    return out;
  }
}

/** A path parameter as text; one that is not percent-encoded UTF-8 (`%`, `%ED%A0%80`) is a 400. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequestError(
      `Path segment ${JSON.stringify(segment.slice(0, 100))} is not valid percent-encoded UTF-8`,
      "invalid_path",
    );
  }
}

function bucketKey(length: number, second: string | undefined): string {
  return `${length}/${second ?? ""}`;
}

function compareSpecificity(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const pa = isParam(a[i]) ? 1 : 0;
    const pb = isParam(b[i]) ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return a.length - b.length;
}
