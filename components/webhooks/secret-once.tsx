"use client";

import { CopyButton, Notice } from "@/components/ui";

/** A new subscription's signing secret: shown here once, never again. */
export function SecretOnce({ secret, authMode }: { secret: string; authMode: string }) {
  return (
    <div className="flex flex-col gap-4">
      <Notice tone="warning" title="Copy the secret now">
        It will not be shown again. Your endpoint needs it to {authMode === "authorization" ? "check the bearer token it receives" : "verify the X-Service-Signature header"}.
      </Notice>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="webhook-secret" className="text-sm font-medium">
          Signing secret
        </label>
        <div className="flex items-center gap-2">
          <input
            id="webhook-secret"
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            data-testid="webhook-secret"
            className="h-8 min-w-0 flex-1 rounded-md border border-line bg-surface-muted px-2.5 font-mono text-xs outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
          />
          <CopyButton value={secret} label="Copy secret" />
        </div>
      </div>
    </div>
  );
}
