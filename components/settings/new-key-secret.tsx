"use client";

import { ShownOnceSecret } from "@/components/ui";
import { apiKeyLabel } from "./api-key-label";
import type { CreatedApiKey } from "./types";

/** The one and only view of a new key's secret. */
export function NewKeySecret({ apiKey }: { apiKey: CreatedApiKey }) {
  return (
    <ShownOnceSecret
      id="new-api-key-secret"
      label={apiKeyLabel(apiKey)}
      value={apiKey.key ?? ""}
      copyLabel="Copy API key"
      title="Copy this key now"
      warning="Store it somewhere safe, such as a secret manager; if you lose it, revoke it and create a new one."
    >
      <p className="text-xs text-muted">
        Send it as <code className="font-mono">Authorization: ApiKey &lt;key&gt;</code> on every API call.
      </p>
    </ShownOnceSecret>
  );
}
