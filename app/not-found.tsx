import type { Metadata } from "next";
import { NotFoundView } from "@/components/shell/not-found-view";

export const metadata: Metadata = { title: "Page not found" };

/** Any address no route answers; Next.js sends it with a 404 status. */
export default function NotFound() {
  return (
    <main id="main" className="flex min-h-screen flex-col justify-center">
      <NotFoundView title="There is no page at this address">
        The link may be mistyped, or the page may have moved. Your agents and their history are where they were.
      </NotFoundView>
    </main>
  );
}
