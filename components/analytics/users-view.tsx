"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, EmptyState, Notice, QueryView, Skeleton } from "@/components/ui";
import { AnalyticsTabs } from "./analytics-tabs";
import { listWindow, type ListRange } from "./conversation-format";
import { ConversationTable, RangeSelect, TotalsCells } from "./conversation-table";

/** The people behind the runs, by the user id runs and traces carry: sessions, runs, cost, errors, scores. */
export function UsersView() {
  const trpc = useTRPC();
  const [range, setRange] = useState<ListRange>("7d");
  const input = useMemo(() => listWindow(range, new Date()), [range]);
  const users = useQuery(trpc.analytics.users.queryOptions(input));
  const isOwner = useAccount().current?.role === "owner";
  const [erasing, setErasing] = useState<string | null>(null);
  const [erased, setErased] = useState<{ user: string; rows: number } | null>(null);
  return (
    <section aria-label="Users" className="flex flex-col gap-4">
      <AnalyticsTabs />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Users</h2>
          <p className="text-sm text-muted">Everyone whose runs carry a user id, the most recently active first.</p>
        </div>
        <RangeSelect value={range} onChange={setRange} />
      </div>
      {erased && (
        <Notice tone="success" title="Deleted">
          <span role="status" data-testid="user-data-deleted">
            {erased.user}: {erased.rows} stored rows deleted (sessions, runs, traces and what they held).
          </span>
        </Notice>
      )}
      <DeleteUserDialog
        userId={erasing}
        onClose={() => setErasing(null)}
        onDeleted={(user, rows) => {
          setErasing(null);
          setErased({ user, rows });
        }}
      />
      <QueryView
        query={users}
        pending={<Skeleton className="h-40" />}
        errorTitle="Could not load users"
        isEmpty={(data) => data.count === 0}
        empty={
          <EmptyState
            title="No users in this range"
            description="Runs started with a user id (the playground's, or user_id on the API and traces) appear here."
          />
        }
      >
        {(data) => (
          <ConversationTable testId="users-table" leading={["User", "Sessions", "Runs"]} trailing={isOwner ? [""] : []}>
            {data.users.map((u) => (
              <tr key={u.user_id} className="border-t border-line" data-testid="user-row">
                <td className="max-w-48 truncate px-2 py-1">
                  <Link
                    href={`/analytics/sessions?user=${encodeURIComponent(u.user_id)}`}
                    className="font-mono text-xs text-accent hover:underline"
                  >
                    {u.user_id}
                  </Link>
                </td>
                <td className="px-2 py-1 tabular-nums">{u.sessions}</td>
                <td className="px-2 py-1 tabular-nums" data-testid="user-runs">
                  {u.runs}
                </td>
                <TotalsCells totals={u} testIdPrefix="user" />
                {isOwner && (
                  <td className="px-2 py-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete this user's data: ${u.user_id}`}
                      onClick={() => setErasing(u.user_id)}
                    >
                      Delete this user&apos;s data
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </ConversationTable>
        )}
      </QueryView>
    </section>
  );
}

/** "Delete this user's data", asked once more: what goes, that it cannot be undone, then the retention API's deletion. */
function DeleteUserDialog({
  userId,
  onClose,
  onDeleted,
}: {
  userId: string | null;
  onClose: () => void;
  onDeleted: (userId: string, rows: number) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const erase = useMutation(
    trpc.retention.deleteUser.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.analytics.pathKey() });
        onDeleted(
          result.target.id,
          Object.values(result.deleted).reduce((a, b) => a + b, 0),
        );
      },
    }),
  );
  return (
    <Dialog
      open={userId !== null}
      onClose={onClose}
      role="alertdialog"
      title={`Delete the data of ${userId ?? ""}?`}
      description="Every chat session, run and trace of this user id is deleted everywhere it is stored, with the scores and files that belong to them. This cannot be undone."
      status={erase.error && <Notice tone="danger">{erase.error.message}</Notice>}
      footer={
        <>
          <Button onClick={onClose} disabled={erase.isPending} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" loading={erase.isPending} onClick={() => userId && erase.mutate({ userId })}>
            Delete for good
          </Button>
        </>
      }
    />
  );
}
