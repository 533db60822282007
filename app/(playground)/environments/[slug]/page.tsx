import type { Metadata } from "next";
import { EnvironmentDetail } from "@/components/environments";
import { PageContainer } from "@/components/shell";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  return { title: `${decodeURIComponent(slug)} · Environments` };
}

export default async function EnvironmentPage({ params }: { params: Params }) {
  const { slug } = await params;
  return (
    <PageContainer>
      <EnvironmentDetail slug={decodeURIComponent(slug)} />
    </PageContainer>
  );
}
