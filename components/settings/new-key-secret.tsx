"use client";

import { CopyButton, Notice } from "@/components/ui";
import { apiKeyLabel } from "./api-key-label";
import type { CreatedApiKey } from "./types";

/** The one and only view of a new key's secret. */
export function NewKeySecret({ apiKey }: { apiKey: CreatedApiKey }) {
  const secret = apiKey.key ?? "";
  return (
    <div className="flex flex-col gap-4">
      <Notice tone="warning" title="Copy this key now">
        It will not be shown again. Store it somewhere safe, such as a secret manager; if you lose it, revoke it and
        create a new one.
      </Notice>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="new-api-key-secret" className="text-sm font-medium">
          {apiKeyLabel(apiKey)}
        </label>
        <div className="flex items-center gap-2">
          <input
            id="new-api-key-secret"
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            data-testid="new-api-key-secret"
            className="h-8 min-w-0 flex-1 rounded-md border border-line bg-surface-muted px-2.5 font-mono text-xs text-foreground outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
          />
          <CopyButton value={secret} label="Copy API key" />
        </div>
      </div>
      <p className="text-xs text-muted">
        Send it as <code className="font-mono">Authorization: ApiKey &lt;key&gt;</code> on every API call.
      </p>
    </div>
  );
}
