import type { Metadata } from "next";
import { NotFoundView } from "@/components/shell/not-found-view";

export const metadata: Metadata = { title: "Agent not found" };

/** `notFound()` from an agent's layouts and pages: the agent, variant or revision is not in this project. */
export default function AgentNotFound() {
  return (
    <NotFoundView title="This agent or version does not exist">
      It may have been deleted, belong to another project, or the link may be incomplete. The agents list shows
      everything in the project you are working in.
    </NotFoundView>
  );
}
