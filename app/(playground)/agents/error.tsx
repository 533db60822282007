"use client";

import { RouteError } from "@/components/agents";

export default function AgentsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <RouteError error={error} retry={retry} />;
}
