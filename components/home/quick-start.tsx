import { Card } from "@/components/ui";

/** The first API call to try, at the address this page was served from; the key comes from Settings or the server's first-start output. */
export function QuickStart({ origin }: { origin: string }) {
  const example = `curl ${origin}/api/keys \\\n  -H "Authorization: ApiKey <your key>"`;
  return (
    <Card
      title="Call the API"
      labelledBy="quick-start-title"
      description="Every REST call carries an API key. Create one in Settings (or use the one printed on the server's first start), then:"
    >
      <pre className="overflow-x-auto bg-surface-muted/60 px-5 py-4 font-mono text-[13px] leading-relaxed">
        <code data-testid="quick-start-command">{example}</code>
      </pre>
    </Card>
  );
}
