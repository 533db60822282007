import type { Metadata } from "next";
import { TestsetsPage } from "@/components/testsets";

export const metadata: Metadata = { title: "Testsets" };

export default function Page() {
  return <TestsetsPage />;
}
