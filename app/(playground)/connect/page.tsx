import type { Metadata } from "next";
import { ProjectConnect } from "@/components/connect";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Connect" };

export default function ConnectPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Connect"
        description="Agent clients (Claude Desktop, Cursor, VS Code, A2A agents) reach what this project exposes: one MCP server, and an A2A agent per exposed agent. Clients authenticate with an API key of the project (Settings → API keys) or sign in over OAuth."
      />
      <ProjectConnect />
    </PageContainer>
  );
}
