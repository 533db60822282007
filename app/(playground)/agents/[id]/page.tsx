import { TRPCError } from "@trpc/server";
import { redirect } from "next/navigation";
import { editorPath } from "@/components/agents/agent-paths";
import { serverCaller } from "@/app/server-session";

/** `/agents/[id]` opens the editor of the agent's default variant. */
export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  let target: string | null = null;
  try {
    const caller = await serverCaller();
    const { variants } = await caller.agents.get({ id });
    const active = variants.filter((v) => !v.deleted_at);
    // Oldest first: the first is the default variant (the oldest), unless it was archived.
    const variant = active[0] ?? variants[0];
    if (variant) target = editorPath(id, variant.id);
  } catch (error) {
    // The layout above already explains a missing agent; anything else is for the error boundary.
    if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR") throw error;
  }
  if (target) redirect(target);
  return null;
}
