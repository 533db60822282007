import type { Metadata } from "next";
import { TestsetEditor } from "@/components/testsets";

export const metadata: Metadata = { title: "Testset" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TestsetEditor testsetId={id} />;
}
