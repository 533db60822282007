"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import {
  Button,
  Card,
  CopyButton,
  Notice,
  Table,
  TableBody,
  TableCell,
  TableHeaderGroup,
  TableColumnHeader,
  TableRow,
  TimeAgo,
  useToast,
} from "@/components/ui";

const ROLES = ["owner", "member", "viewer"] as const;
type Role = (typeof ROLES)[number];

const ROLE_HELP: Record<Role, string> = {
  owner: "everything, plus members and invites",
  member: "commit, deploy, keys and webhooks",
  viewer: "read only",
};

/** Members with their roles; owners change roles, remove people and make single-use invite links. */
export function MembersSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { user, current } = useAccount();
  const isOwner = current?.role === "owner";
  const members = useQuery(trpc.members.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const onError = (error: { message: string }) =>
    toast({ tone: "danger", title: "That did not work", description: error.message });
  const setRole = useMutation(trpc.members.setRole.mutationOptions({ onSuccess: invalidate, onError }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: invalidate, onError }));

  return (
    <Card
      title="Members"
      labelledBy="members-title"
      description={`Roles: ${ROLES.map((r) => `${r} (${ROLE_HELP[r]})`).join(", ")}.`}
    >
      {members.isError ? (
        <div className="p-5">
          <Notice tone="danger">{members.error.message}</Notice>
        </div>
      ) : (
        <Table aria-label="Members" stacked>
          <TableHeaderGroup>
            <TableRow>
              <TableColumnHeader>Name</TableColumnHeader>
              <TableColumnHeader>Email</TableColumnHeader>
              <TableColumnHeader>Role</TableColumnHeader>
              <TableColumnHeader>Joined</TableColumnHeader>
              <TableColumnHeader>
                <span className="sr-only">Actions</span>
              </TableColumnHeader>
            </TableRow>
          </TableHeaderGroup>
          <TableBody>
            {(members.data ?? []).map((m) => (
              <TableRow key={m.id}>
                <TableCell className="font-medium">{m.name ?? "—"}</TableCell>
                <TableCell label="Email">{m.email}</TableCell>
                <TableCell label="Role">
                  {isOwner && m.id !== user.id ? (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      onChange={(e) => setRole.mutate({ userId: m.id, role: e.target.value as Role })}
                      className="rounded-md border border-line bg-surface px-2 py-1 text-sm"
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    m.role
                  )}
                </TableCell>
                <TableCell label="Joined">
                  <TimeAgo iso={new Date(m.joinedAt).toISOString()} />
                </TableCell>
                <TableCell className="text-right">
                  {isOwner && m.id !== user.id && (
                    <Button size="sm" variant="ghost" onClick={() => remove.mutate({ userId: m.id })}>
                      Remove
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {isOwner && <InvitePanel />}
    </Card>
  );
}

function InvitePanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>("member");
  const [link, setLink] = useState<string | null>(null);
  const invites = useQuery(trpc.members.invites.queryOptions());
  const create = useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: async (invite) => {
        setLink(`${window.location.origin}/invite/${invite.token}`);
        await queryClient.invalidateQueries({ queryKey: trpc.members.invites.queryKey() });
      },
    }),
  );
  const revoke = useMutation(
    trpc.members.revokeInvite.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.members.invites.queryKey() }),
    }),
  );
  const open = (invites.data ?? []).filter((i) => !i.acceptedAt && !i.revokedAt && new Date(i.expiresAt) > new Date());

  return (
    <div className="flex flex-col gap-3 border-t border-line px-5 py-4">
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Invite as
          <select
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            className="rounded-md border border-line bg-surface px-2 py-1 text-sm"
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <Button variant="primary" loading={create.isPending} onClick={() => create.mutate({ role })}>
          Create invite link
        </Button>
      </div>
      {create.isError && <Notice tone="danger">{create.error.message}</Notice>}
      {link && (
        <Notice tone="success" title="Invite link (single use, expires in 7 days; shown only now)">
          <span className="flex items-center gap-2">
            <code className="font-mono text-xs break-all" data-testid="invite-link">
              {link}
            </code>
            <CopyButton value={link} label="Copy invite link" />
          </span>
        </Notice>
      )}
      {open.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm text-muted">
          {open.map((i) => (
            <li key={i.id} className="flex items-center gap-2">
              Open invite as {i.role}, expires <TimeAgo iso={new Date(i.expiresAt).toISOString()} />
              <Button size="sm" variant="ghost" onClick={() => revoke.mutate({ id: i.id })}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
