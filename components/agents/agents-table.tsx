"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import {
  Badge,
  Table,
  TableBody,
  TableCell,
  TableHeaderGroup,
  TableColumnHeader,
  TableRow,
  TimeAgo,
  focusRing,
  cn,
} from "@/components/ui";
import { agentPath, editorPath } from "./agent-paths";
import { DeploymentCell } from "./deployment-cell";
import type { EnvironmentColumn } from "./environment-columns";
import type { AgentListItem } from "./types";
import { VersionBadge } from "./version-badge";

export function AgentsTable({ items, environments }: { items: AgentListItem[]; environments: EnvironmentColumn[] }) {
  const router = useRouter();
  return (
    <Table aria-label="Agents" stacked>
      <TableHeaderGroup>
        <tr>
          <TableColumnHeader>Agent</TableColumnHeader>
          <TableColumnHeader>Latest</TableColumnHeader>
          {environments.map((env) => (
            <TableColumnHeader key={env.slug}>{env.name}</TableColumnHeader>
          ))}
          <TableColumnHeader className="w-full">Last change</TableColumnHeader>
        </tr>
      </TableHeaderGroup>
      <TableBody>
        {items.map((item) => {
          const href = item.defaultVariantId
            ? editorPath(item.agent.id, item.defaultVariantId)
            : agentPath(item.agent.id);
          const archived = Boolean(item.agent.deleted_at);
          return (
            <TableRow
              key={item.agent.id}
              data-testid="agent-row"
              className="h-14 cursor-pointer"
              // The name is the link (keyboard, middle click); the rest of the row is a larger mouse target.
              onClick={(event) => {
                if (event.target instanceof Element && event.target.closest("a")) return;
                router.push(href);
              }}
            >
              {/* A long name truncates (whole on hover) instead of pushing the other columns off-screen. */}
              <TableCell className="max-w-[min(20rem,60vw)]">
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="flex min-w-0 items-center gap-2">
                    <Link
                      href={href}
                      title={item.agent.name ?? item.agent.slug}
                      className={cn(
                        "min-w-0 truncate rounded font-medium text-foreground hover:underline",
                        focusRing,
                        archived && "text-muted",
                      )}
                    >
                      {item.agent.name ?? item.agent.slug}
                    </Link>
                    {archived && <Badge>Archived</Badge>}
                  </span>
                  <span className="truncate font-mono text-xs text-muted" title={item.agent.slug}>
                    {item.agent.slug}
                  </span>
                </div>
              </TableCell>
              <TableCell label="Latest">
                {item.latest ? (
                  <VersionBadge version={item.latest.version} tone="accent" />
                ) : (
                  <span className="text-muted">—</span>
                )}
              </TableCell>
              {environments.map((env) => (
                <TableCell key={env.slug} label={env.name}>
                  <DeploymentCell
                    environment={env.name}
                    latestVersion={item.latest?.version}
                    deployments={item.deployments.filter((d) => d.environment === env.slug)}
                  />
                </TableCell>
              ))}
              <TableCell className="max-w-0 min-w-56" label="Last change">
                {item.latest ? (
                  <div className="flex min-w-0 items-center gap-3">
                    <span className="min-w-0 flex-1 truncate" title={item.latest.message ?? undefined}>
                      {item.latest.message || <span className="text-muted italic">No message</span>}
                    </span>
                    <span className="shrink-0 text-xs text-muted">
                      <TimeAgo iso={item.latest.date} />
                    </span>
                  </div>
                ) : (
                  <span className="text-muted">No revisions</span>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
