import type { Metadata } from "next";
import { DeployView } from "@/components/deploy";

export const metadata: Metadata = { title: "Deploy" };

export default async function DeployPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  const revision = Array.isArray(query.revision) ? query.revision[0] : query.revision;
  return <DeployView agentId={id} variantId={variantId} revisionId={revision || undefined} />;
}
