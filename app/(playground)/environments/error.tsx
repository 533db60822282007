"use client";

import { RouteError } from "@/components/history/route-error";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <RouteError
      error={error}
      retry={retry}
      title="Could not show the environments"
      backHref="/"
      backLabel="Back to the overview"
    />
  );
}
