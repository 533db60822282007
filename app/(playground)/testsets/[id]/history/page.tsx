import type { Metadata } from "next";
import { TestsetHistory } from "@/components/testsets";

export const metadata: Metadata = { title: "Testset history" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TestsetHistory testsetId={id} />;
}
