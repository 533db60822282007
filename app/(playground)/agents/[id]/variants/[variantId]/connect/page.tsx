import type { Metadata } from "next";
import { ConnectPanel } from "@/components/connect";

export const metadata: Metadata = { title: "Connect" };

/** Where the agent is exposed to MCP and A2A clients, what to paste into them, and a door test. */
export default async function ConnectPage({ params }: { params: Promise<{ id: string; variantId: string }> }) {
  const { id, variantId } = await params;
  return <ConnectPanel agentId={id} variantId={variantId} />;
}
