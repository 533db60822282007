"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/components/trpc";
import type { ProviderConnection } from "./types";

/** Provider id -> the credential a run would use for it; absent providers have none. */
export function useConnectedProviders(): Map<string, ProviderConnection> {
  const trpc = useTRPC();
  const providers = useQuery(trpc.connections.providers.queryOptions());
  return useMemo(() => new Map((providers.data ?? []).map((p) => [p.provider, p])), [providers.data]);
}
