import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { serverCaller } from "@/app/server-session";
import { EnvironmentDetail } from "@/components/environments";
import { PageContainer } from "@/components/shell";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug } = await params;
  return { title: `${decodeURIComponent(slug)} · Environments` };
}

export default async function EnvironmentPage({ params }: { params: Params }) {
  const slug = decodeURIComponent((await params).slug);
  // An environment that does not exist (or was archived) answers 404 with the designed page.
  const environments = await (await serverCaller()).environments.overview();
  if (!environments.some((env) => env.slug === slug)) notFound();
  return (
    <PageContainer>
      <EnvironmentDetail slug={slug} />
    </PageContainer>
  );
}
