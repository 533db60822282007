import { Badge, type BadgeTone } from "@/components/ui";

/** `v3`: how a revision's version reads everywhere in the agents area. */
export function VersionBadge({
  version,
  tone = "neutral",
  title,
}: {
  version: string | number;
  tone?: BadgeTone;
  title?: string;
}) {
  return (
    <span title={title}>
      <Badge tone={tone} className="font-mono tabular-nums">
        v{version}
      </Badge>
    </span>
  );
}
