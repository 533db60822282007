import type { ReactNode } from "react";
import { AgentLayout } from "@/components/agents";

export default function Layout({ children }: { children: ReactNode }) {
  return <AgentLayout>{children}</AgentLayout>;
}
