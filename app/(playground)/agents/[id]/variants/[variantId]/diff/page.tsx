import type { Metadata } from "next";
import { CompareView } from "@/components/diff";

export const metadata: Metadata = { title: "Compare revisions" };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;

export default async function DiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; variantId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id, variantId }, query] = await Promise.all([params, searchParams]);
  return <CompareView agentId={id} variantId={variantId} from={one(query.from)} to={one(query.to)} />;
}
