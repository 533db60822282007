"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/components/trpc";
import { variantLabel } from "./variant-label";

/** Variant id -> label, from the agent's details the header already loaded. */
export function useVariantLabels(
  agentId: string,
): (variantId: string | undefined, fallback?: string) => string | undefined {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));
  const labels = useMemo(() => new Map((agent.data?.variants ?? []).map((v) => [v.id, variantLabel(v)])), [agent.data]);
  return (variantId, fallback) => (variantId ? (labels.get(variantId) ?? fallback) : fallback);
}
