"use client";

import { ShownOnceSecret } from "@/components/ui";

/** A new subscription's signing secret: shown here once, never again. */
export function SecretOnce({ secret, authMode }: { secret: string; authMode: string }) {
  return (
    <ShownOnceSecret
      id="webhook-secret"
      label="Signing secret"
      value={secret}
      copyLabel="Copy secret"
      title="Copy the secret now"
      warning={`Your endpoint needs it to ${authMode === "authorization" ? "check the bearer token it receives" : "verify the X-Service-Signature header"}.`}
    />
  );
}
