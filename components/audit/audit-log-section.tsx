"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import {
  Button,
  Card,
  Input,
  Notice,
  Table,
  TableBody,
  TableCell,
  TableColumnHeader,
  TableHeaderGroup,
  TableRow,
  TimeAgo,
} from "@/components/ui";

/** Who changed what, newest first, for owners: filtered by action, a page at a time. */
export function AuditLogSection() {
  const { current } = useAccount();
  if (current?.role !== "owner") return null;
  return <AuditLog />;
}

function AuditLog() {
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const entries = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { action: action.trim() || undefined, limit: 50 },
      { getNextPageParam: (page) => page.next },
    ),
  );
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Card
      title="Audit log"
      labelledBy="audit-log-title"
      description="Every change to members, invites, keys, provider connections and secrets, webhooks, deploys and deploy rules, budgets and limits, and every sign-in. Append-only; export it as JSON lines with GET /api/audit/export."
    >
      <div className="flex items-center gap-2 p-4">
        <Input
          aria-label="Filter by action"
          placeholder="Action, e.g. api_key.created"
          value={action}
          onChange={(event) => setAction(event.target.value)}
        />
      </div>
      {entries.isError ? (
        <div className="p-5">
          <Notice tone="danger">{entries.error.message}</Notice>
        </div>
      ) : (
        <Table aria-label="Audit log">
          <TableHeaderGroup>
            <TableRow>
              <TableColumnHeader>When</TableColumnHeader>
              <TableColumnHeader>Action</TableColumnHeader>
              <TableColumnHeader>Actor</TableColumnHeader>
              <TableColumnHeader>Target</TableColumnHeader>
              <TableColumnHeader>Address</TableColumnHeader>
            </TableRow>
          </TableHeaderGroup>
          <TableBody>
            {rows.map((entry) => (
              <TableRow key={entry.id} data-testid="audit-entry">
                <TableCell className="text-muted">
                  <TimeAgo iso={entry.occurred_at} />
                </TableCell>
                <TableCell className="font-mono text-xs">{entry.action}</TableCell>
                <TableCell className="text-xs">
                  {entry.actor.type === "api_key"
                    ? `key ${entry.actor.api_key_id?.slice(0, 8)}`
                    : (entry.actor.label ?? entry.actor.user_id?.slice(0, 8) ?? entry.actor.type)}
                </TableCell>
                <TableCell className="text-xs">
                  {entry.target.type} {entry.target.id?.slice(0, 8)}
                </TableCell>
                <TableCell className="text-xs text-muted">{entry.client_address ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {entries.hasNextPage && (
        <div className="p-4">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => entries.fetchNextPage()}
            disabled={entries.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      )}
    </Card>
  );
}
