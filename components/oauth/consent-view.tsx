"use client";

import { useState } from "react";
import { AuthCard, postJson } from "@/components/auth";
import { Button, Notice } from "@/components/ui";

export interface ConsentFacts {
  clientName: string;
  projectName: string;
  scopes: string[];
  signedInAs: string;
}

const SCOPE_TEXT: Record<string, string> = {
  read: "see the agents and prompts this project exposes, and their deployed configuration",
  run: "run those agents as you (budgets, rate limits and approvals apply)",
};

/** `/oauth/authorize`: the signed-in user allows or denies an MCP client access to one project. */
export function ConsentView({ facts, request }: { facts: ConsentFacts; request: Record<string, string> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function answer(decision: "allow" | "deny") {
    setBusy(true);
    try {
      const { redirect_to } = await postJson<{ redirect_to: string }>("/api/oauth/authorize", { ...request, decision });
      window.location.assign(redirect_to);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }
  return (
    <AuthCard
      title={`Allow ${facts.clientName}?`}
      description={`${facts.clientName} asks to use the project ${facts.projectName} over MCP. You are logged in as ${facts.signedInAs}.`}
    >
      <ul className="flex list-disc flex-col gap-1 pl-5 text-sm" aria-label="What it may do">
        {facts.scopes.map((scope) => (
          <li key={scope}>{SCOPE_TEXT[scope] ?? scope}</li>
        ))}
      </ul>
      {error && <Notice tone="danger">{error}</Notice>}
      <div className="flex gap-2">
        <Button variant="primary" loading={busy} onClick={() => answer("allow")}>
          Allow
        </Button>
        <Button disabled={busy} onClick={() => answer("deny")}>
          Deny
        </Button>
      </div>
    </AuthCard>
  );
}
