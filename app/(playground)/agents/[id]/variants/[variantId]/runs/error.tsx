"use client";

import { useParams } from "next/navigation";
import { RouteError } from "@/components/history/route-error";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const { id, variantId } = useParams<{ id: string; variantId: string }>();
  return (
    <RouteError
      error={error}
      retry={retry}
      title="Could not show the runs"
      backHref={`/agents/${id}/variants/${variantId}`}
      backLabel="Back to the editor"
    />
  );
}
