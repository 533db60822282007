import type { Marker } from "./metric-chart";

/**
 * The bucket each deploy in the window happened in, labelled with its environment (`env.slug`);
 * deploys before the first bucket or from the window's end on are left out. Deploys of one bucket
 * are one marker ("deploy staging, production"): two lines on one spot would print on each other.
 */
export function deployMarkers(
  result: { buckets: readonly { timestamp: string }[]; windowing: { newest: string } },
  deploys: { at?: string; env: unknown }[],
): Marker[] {
  const starts = result.buckets.map((b) => Date.parse(b.timestamp));
  const end = Date.parse(result.windowing.newest);
  const markers: Marker[] = [];
  for (const d of deploys) {
    const at = d.at ? Date.parse(d.at) : NaN;
    if (!(at >= starts[0] && at < end)) continue;
    const bucket = starts.findLastIndex((s) => s <= at);
    const env = typeof d.env === "object" && d.env && "slug" in d.env ? String(d.env.slug) : "";
    const same = markers.find((m) => m.bucket === bucket);
    if (!same) markers.push({ bucket, label: env ? `deploy ${env}` : "deploy" });
    else if (env && !same.label.split(/, | /).includes(env))
      same.label += same.label === "deploy" ? ` ${env}` : `, ${env}`;
  }
  return markers.sort((a, b) => a.bucket - b.bucket);
}
