import type { Executor } from "@/server/db";
import { allAuditEntries, type AuditFilter } from "./query-audit";
import { auditEntryToWire } from "./wire";

/** The project's audit log as JSON lines (one entry a line, newest first), streamed a page at a time. */
export function auditExportResponse(db: Executor, projectId: string, filter: AuditFilter): Response {
  const entries = allAuditEntries(db, projectId, filter);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await entries.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(auditEntryToWire(value))}\n`));
    },
    async cancel() {
      await entries.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson",
      "content-disposition": 'attachment; filename="audit-log.jsonl"',
    },
  });
}
