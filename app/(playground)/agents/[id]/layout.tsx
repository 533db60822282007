import type { ReactNode } from "react";
import { AgentLayout } from "@/components/agents";
import { findOrNotFound } from "@/app/agent-lookup";

/** A missing agent answers 404 with the agents' not-found page, before any of its pages render. */
export default async function Layout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  await findOrNotFound([id], (caller) => caller.agents.get({ id }));
  return <AgentLayout>{children}</AgentLayout>;
}
