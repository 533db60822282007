import type { Metadata } from "next";
import { NotFoundView } from "@/components/shell/not-found-view";

export const metadata: Metadata = { title: "Not found" };

/** `notFound()` from a playground page: the same words as the root's, inside the shell. */
export default function PlaygroundNotFound() {
  return (
    <NotFoundView title="This page does not exist">
      What the link pointed to may have been deleted or archived, or the link may be incomplete.
    </NotFoundView>
  );
}
