"use client";

import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeaderGroup,
  TableColumnHeader,
  TableRow,
  TimeAgo,
  cn,
} from "@/components/ui";
import { useNow } from "@/components/runs/use-now";
import { apiKeyLabel } from "./api-key-label";
import { scopesLabel } from "./api-key-scopes";
import { ApiKeyStatus } from "./api-key-status";
import type { ApiKey } from "./types";

export function ApiKeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const now = useNow(false);
  return (
    <Table aria-label="API keys" stacked>
      <TableHeaderGroup>
        <tr>
          <TableColumnHeader>Name</TableColumnHeader>
          <TableColumnHeader>Key</TableColumnHeader>
          <TableColumnHeader>Scope</TableColumnHeader>
          <TableColumnHeader>Expires</TableColumnHeader>
          <TableColumnHeader>Created</TableColumnHeader>
          <TableColumnHeader>Last used</TableColumnHeader>
          <TableColumnHeader>Status</TableColumnHeader>
          <TableColumnHeader>
            <span className="sr-only">Actions</span>
          </TableColumnHeader>
        </tr>
      </TableHeaderGroup>
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key.id} data-testid="api-key-row" data-key-id={key.id}>
            {/* A long name or scope list wraps or truncates instead of pushing the table past its card. */}
            <TableCell
              className={cn(
                "max-w-48 truncate",
                key.revoked_at ? "text-muted" : key.name ? "font-medium" : "text-muted italic",
              )}
              title={key.name ?? undefined}
            >
              {key.name ?? "Unnamed"}
            </TableCell>
            <TableCell label="Key">
              <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs text-muted">{key.prefix}…</code>
            </TableCell>
            <TableCell label="Scope" className="whitespace-normal!">
              {scopesLabel(key.scopes)}
            </TableCell>
            <TableCell className="text-muted" label="Expires">
              {key.expires_at ? <time dateTime={key.expires_at}>{key.expires_at.slice(0, 10)}</time> : "Never"}
            </TableCell>
            <TableCell className="text-muted" label="Created">
              <TimeAgo iso={key.created_at} />
            </TableCell>
            <TableCell className="text-muted" label="Last used">
              <TimeAgo iso={key.last_used_at} fallback="Never" />
            </TableCell>
            <TableCell label="Status">
              <ApiKeyStatus apiKey={key} now={now} />
            </TableCell>
            <TableCell className="text-right">
              {!key.revoked_at && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="hover:text-danger"
                  onClick={() => onRevoke(key)}
                  aria-label={`Revoke ${apiKeyLabel(key)}`}
                >
                  Revoke
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
