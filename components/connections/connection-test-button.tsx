"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Badge, Button } from "@/components/ui";

/** Runs one tiny generation through the stored connection and says how it went. */
export function ConnectionTestButton({ id, disabled }: { id: string; disabled: boolean }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.connections.test.mutationOptions());
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button size="sm" onClick={() => test.mutate({ id })} loading={test.isPending} disabled={disabled}>
        Test connection
      </Button>
      <span role="status" className="text-xs" data-testid="connection-test-result">
        {test.data?.ok && (
          <Badge tone="success" dot>
            Works: {test.data.model} answered in {test.data.ms} ms
          </Badge>
        )}
        {test.data && !test.data.ok && <span className="text-danger">{test.data.message}</span>}
        {test.error && <span className="text-danger">{test.error.message}</span>}
      </span>
    </div>
  );
}
