import Link from "next/link";
import { PageContainer } from "@/components/shell";
import { navItems } from "@/components/shell/nav-items";
import { ArrowRightIcon, BookIcon, buttonClass } from "@/components/ui";
import { AnalyticsView } from "@/components/analytics";
import { QuickStart } from "@/components/home/quick-start";
import { StartCard } from "@/components/home/start-card";
import { publicOrigin } from "@/app/server-session";

export default async function HomePage() {
  const origin = await publicOrigin();
  return (
    <PageContainer>
      {/* A team's first screen is how its agents are doing. */}
      <AnalyticsView />

      <section className="flex flex-col gap-4 pt-2">
        <p className="text-xs font-medium tracking-wide text-accent uppercase">Playground</p>
        <h1 className="max-w-2xl text-2xl font-semibold tracking-tight text-balance md:text-3xl">
          Build, version and ship LLM agents from your browser
        </h1>
        <p className="max-w-2xl text-base text-muted">
          The playground is the browser side of this self-hosted agent service. Everything you do here goes through the
          same functions as the public REST API: agent configurations and prompts under git-like version control,
          deployments to environments, chats with your agents, their traces, and signed webhooks.
        </p>
        <div className="flex flex-wrap gap-2 pt-1">
          <Link href="/agents" className={buttonClass({ variant: "primary" })}>
            Open agents
            <ArrowRightIcon className="size-3.5" />
          </Link>
          <Link href="/settings" className={buttonClass()}>
            Manage API keys
          </Link>
          <a href="/api/openapi.json" target="_blank" rel="noreferrer" className={buttonClass()}>
            OpenAPI document
          </a>
        </div>
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        {navItems
          .filter((item) => item.href !== "/")
          .map(({ href, label, icon: Icon, description }) => (
            <StartCard key={href} href={href} icon={<Icon />} title={label} description={description} />
          ))}
        <StartCard
          href="/api/openapi.json"
          external
          icon={<BookIcon />}
          title="API reference"
          description="The OpenAPI 3.1 document of every REST route, at /api/openapi.json."
        />
      </div>

      <QuickStart origin={origin} />
    </PageContainer>
  );
}
