"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Badge, CopyButton, EmptyState, QueryView, Skeleton } from "@/components/ui";
import type { ExposedListing } from "@/server/a2a";
import { a2aEndpoint, agentCardUrl, mcpConfigs, mcpEndpoint } from "./client-configs";
import { ConnectField } from "./connect-field";

/**
 * The project's Connect page: its one MCP endpoint and what to paste into Claude Desktop, Cursor
 * and VS Code, then every agent and prompt the project exposes and its environments run now (what
 * clients see), each agent with its A2A card and endpoint. Exposing is done per agent, on its
 * Connect tab.
 */
export function ProjectConnect() {
  const trpc = useTRPC();
  const project = useQuery(trpc.project.current.queryOptions());
  const exposed = useQuery(trpc.connect.exposed.queryOptions());
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const projectId = project.data?.id ?? "";
  const mcpUrl = mcpEndpoint(origin, projectId);
  return (
    <QueryView
      query={exposed}
      pending={<Skeleton className="h-40" />}
      errorTitle="Could not load what the project exposes"
      isEmpty={(list) => (list as ExposedListing[]).length === 0}
      empty={
        <EmptyState
          className="rounded-xl border border-dashed border-line"
          title="Nothing exposed yet"
          description="Open an agent, then its Connect tab, and expose it at an environment that runs it: it becomes a tool of this project's MCP server and an A2A agent."
        />
      }
    >
      {(list) => (
        <div className="flex flex-col gap-6">
          <section aria-label="MCP server" className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
            <h2 className="text-sm font-semibold">MCP server</h2>
            <ConnectField label="Endpoint (Streamable HTTP; every exposed agent is a tool)" value={mcpUrl} />
            {mcpConfigs(mcpUrl, "agents").map((config) => (
              <details key={config.client} className="rounded-md border border-line p-2">
                <summary className="cursor-pointer text-sm font-medium">
                  {config.client} <span className="text-xs text-muted">{config.where}</span>
                </summary>
                <div className="mt-2 flex items-start gap-2">
                  <pre className="flex-1 overflow-x-auto rounded bg-surface-muted p-2 text-xs">{config.text}</pre>
                  <CopyButton value={config.text} size="sm" />
                </div>
              </details>
            ))}
          </section>
          <ul aria-label="Exposed" className="flex flex-col gap-3">
            {(list as ExposedListing[]).map((entry) => (
              <li
                key={`${entry.kind}:${entry.name}`}
                aria-label={entry.name}
                className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="text-sm font-semibold">{entry.title}</h3>
                  <code className="text-xs text-muted">{entry.name}</code>
                  <Badge>{entry.kind === "agent" ? "Agent: MCP tool and A2A agent" : "Prompt: MCP prompt"}</Badge>
                  <span className="text-xs text-muted">
                    v{entry.version} at {entry.environment}
                  </span>
                </div>
                {entry.kind === "agent" && projectId && (
                  <>
                    <ConnectField label="A2A agent card" value={agentCardUrl(origin, projectId, entry.name)} />
                    <ConnectField label="A2A JSON-RPC endpoint" value={a2aEndpoint(origin, projectId, entry.name)} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </QueryView>
  );
}
