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

const isParam = (segment: string) => segment.startsWith("{") && segment.endsWith("}");

/**
 * Matches `/api/keys/{id}/revoke`-style templates. A literal segment beats a parameter at the
 * same position, so `/variants/query` wins over `/{id}` regardless of registration order.
 */
export class PathMatcher<T> {
  private readonly entries: CompiledPath<T>[] = [];

  add(template: string, value: T): void {
    this.entries.push({ segments: split(template), value });
    this.entries.sort((a, b) => compareSpecificity(a.segments, b.segments));
  }

  /** Every entry whose template matches, most specific first. */
  matchAll(path: string): PathMatch<T>[] {
    const parts = split(path);
    const out: PathMatch<T>[] = [];
    for (const entry of this.entries) {
      if (entry.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = entry.segments[i];
        if (isParam(seg)) params[seg.slice(1, -1)] = decodeURIComponent(parts[i]);
        else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (ok) out.push({ value: entry.value, params });
    }
    return out;
  }
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
