import { Card } from "@/components/ui";

const EXAMPLE = `curl http://localhost:3000/api/keys \\
  -H "Authorization: ApiKey <your key>"`;

/** The first API call to try; the key comes from Settings or the server's first-start output. */
export function QuickStart() {
  return (
    <Card
      title="Call the API"
      labelledBy="quick-start-title"
      description="Every REST call carries an API key. Create one in Settings (or use the one printed on the server's first start), then:"
    >
      <pre className="overflow-x-auto bg-surface-muted/60 px-5 py-4 font-mono text-[13px] leading-relaxed">
        <code>{EXAMPLE}</code>
      </pre>
    </Card>
  );
}
