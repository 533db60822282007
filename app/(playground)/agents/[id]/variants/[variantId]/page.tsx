import { Suspense } from "react";
import { AgentEditor, AgentEditorSkeleton } from "@/components/editor";

/** The template editor of one variant; `?view=json` opens the JSON view. */
export default async function EditorPage({ params }: { params: Promise<{ id: string; variantId: string }> }) {
  const { id, variantId } = await params;
  return (
    <Suspense fallback={<AgentEditorSkeleton />}>
      <AgentEditor agentId={id} variantId={variantId} />
    </Suspense>
  );
}
