"use client";

import { RouteError } from "@/components/history";

export default function TestsetsError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div className="w-full max-w-5xl px-4 py-8 md:px-6">
      <RouteError
        error={error}
        retry={retry}
        title="Could not show this testset"
        backHref="/testsets"
        backLabel="All testsets"
      />
    </div>
  );
}
