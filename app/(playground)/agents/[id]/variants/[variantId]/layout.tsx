import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { findOrNotFound } from "@/app/agent-lookup";

/** A variant of another agent (or none) is not found here either. */
export default async function VariantLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string; variantId: string }>;
}) {
  const { id, variantId } = await params;
  const { variants } = await findOrNotFound([id, variantId], (caller) => caller.agents.get({ id }));
  if (!variants.some((v) => v.id === variantId)) notFound();
  return children;
}
