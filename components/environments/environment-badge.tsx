import { Badge, type BadgeTone } from "@/components/ui";

/** The standard three get fixed colours, so "production" looks the same on every page. */
const tones: Record<string, BadgeTone> = { development: "accent", staging: "warning", production: "success" };

export const environmentTone = (slug: string): BadgeTone => tones[slug] ?? "neutral";

/** Standard environments first, in promotion order; others after, by name. */
export function compareEnvironments(a: { slug: string }, b: { slug: string }): number {
  const order = ["development", "staging", "production"];
  const ia = order.indexOf(a.slug);
  const ib = order.indexOf(b.slug);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  return a.slug.localeCompare(b.slug);
}

export function EnvironmentBadge({ slug, className }: { slug: string; className?: string }) {
  return (
    <Badge tone={environmentTone(slug)} dot className={className}>
      {slug}
    </Badge>
  );
}
