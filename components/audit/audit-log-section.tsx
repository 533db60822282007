"use client";

import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import type { AuditEntryWire } from "@/server/audit";
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
  const members = useQuery(trpc.members.list.queryOptions());
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const person = (id: string | undefined) => {
    const member = members.data?.find((m) => m.id === id);
    return member ? member.name || member.email : undefined;
  };
  const keyName = (id: string | undefined) => {
    const key = keys.data?.find((k) => k.id === id);
    return key ? `key ${key.name ?? "unnamed"} (${key.prefix}…)` : undefined;
  };
  const exporting = useMutation(
    trpc.audit.export.mutationOptions({
      onSuccess: ({ jsonl }) => {
        const url = URL.createObjectURL(new Blob([jsonl], { type: "application/x-ndjson" }));
        const link = document.createElement("a");
        link.href = url;
        link.download = "audit-log.jsonl";
        link.click();
        URL.revokeObjectURL(url);
      },
    }),
  );
  return (
    <Card
      title="Audit log"
      labelledBy="audit-log-title"
      description="Every change to members, invites, keys, provider connections and secrets, webhooks, deploys, canaries and deploy rules, budgets, limits and model prices, monitors and automations, and every sign-in. Append-only; export it as JSON lines with GET /api/audit/export."
    >
      <div className="flex flex-wrap items-center gap-2 p-4">
        <Input
          aria-label="Filter by action"
          placeholder="Action, e.g. api_key.created"
          value={action}
          onChange={(event) => setAction(event.target.value)}
          className="min-w-0 flex-1"
        />
        <Button
          size="sm"
          loading={exporting.isPending}
          onClick={() => exporting.mutate({ action: action.trim() || undefined })}
        >
          Export (JSON lines)
        </Button>
      </div>
      {exporting.error && (
        <div className="px-4 pb-2">
          <Notice tone="danger">{exporting.error.message}</Notice>
        </div>
      )}
      {entries.isError ? (
        <div className="p-5">
          <Notice tone="danger">{entries.error.message}</Notice>
        </div>
      ) : (
        <Table aria-label="Audit log" stacked>
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
                <TableCell className="whitespace-normal text-muted" label="When">
                  <TimeAgo iso={entry.occurred_at} />
                </TableCell>
                <TableCell className="font-mono text-xs whitespace-normal wrap-anywhere" label="Action">
                  {entry.action}
                </TableCell>
                <TableCell className="text-xs whitespace-normal wrap-anywhere" label="Actor">
                  {entry.actor.type === "api_key"
                    ? (keyName(entry.actor.api_key_id) ?? `key ${entry.actor.api_key_id}`)
                    : (person(entry.actor.user_id) ?? entry.actor.label ?? entry.actor.user_id ?? entry.actor.type)}
                </TableCell>
                <TableCell className="text-xs whitespace-normal wrap-anywhere" label="Target">
                  {entry.target.type.replaceAll("_", " ")} {targetName(entry, person, keyName)}
                </TableCell>
                <TableCell className="text-xs whitespace-normal text-muted wrap-anywhere" label="Address">
                  {entry.client_address ?? "—"}
                </TableCell>
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

type Entry = AuditEntryWire;

/** What a person calls the target: its name (or email) as recorded, a member's or key's name, else its id in full. */
function targetName(
  entry: Entry,
  person: (id: string | undefined) => string | undefined,
  keyName: (id: string | undefined) => string | undefined,
): string {
  const named = (value: unknown) => {
    if (typeof value !== "object" || value === null) return undefined;
    const v = value as Record<string, unknown>;
    const label = v.name ?? v.email ?? v.slug;
    return typeof label === "string" && label ? label : undefined;
  };
  return (
    named(entry.after) ??
    named(entry.before) ??
    person(entry.target.id) ??
    keyName(entry.target.id)?.replace(/^key /, "") ??
    entry.target.id ??
    ""
  );
}
