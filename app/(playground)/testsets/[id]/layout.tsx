import type { ReactNode } from "react";
import { findOrNotFound } from "@/app/agent-lookup";
import { TestsetLayout } from "@/components/testsets";

/** A missing testset answers 404 before any of its pages render. */
export default async function Layout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  await findOrNotFound([id], (caller) => caller.testsets.get({ id }));
  return <TestsetLayout testsetId={id}>{children}</TestsetLayout>;
}
