import { Badge, Card } from "@/components/ui";

// Areas of the playground that are not built yet; each gets a sidebar entry when its page lands.
const upcoming = [
  { name: "Chat", description: "Talk to an agent beside its editor, approve its tool calls, and see each turn's trace." },
  { name: "Traces", description: "Browse the OpenTelemetry traces of every run." },
  { name: "Webhooks", description: "Subscribe endpoints to signed events and inspect deliveries." },
];

export function RoadmapList() {
  return (
    <Card title="Coming to the playground" labelledBy="roadmap-title">
      <ul className="divide-y divide-line">
        {upcoming.map((area) => (
          <li key={area.name} className="flex items-center justify-between gap-4 px-5 py-3">
            <div className="flex min-w-0 flex-col">
              <span className="text-sm font-medium">{area.name}</span>
              <span className="text-sm text-muted">{area.description}</span>
            </div>
            <Badge>Soon</Badge>
          </li>
        ))}
      </ul>
    </Card>
  );
}
