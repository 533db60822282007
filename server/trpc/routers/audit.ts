import { z } from "zod";
import { allAuditEntries, auditEntryToWire, auditFilterFrom, auditFilterInput, queryAudit } from "@/server/audit";
import { createTRPCRouter, ownerProcedure } from "../init";

/** The project's audit log for Settings: the same filters and pages as GET /api/audit, owners only. */
export const auditRouter = createTRPCRouter({
  list: ownerProcedure
    .input(
      auditFilterInput.extend({
        limit: z.number().int().min(1).max(200).optional(),
        // `direction` is what TanStack's infinite queries add to a cursor input; the cursor only goes forward.
        cursor: z.string().uuid().optional(),
        direction: z.enum(["forward", "backward"]).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await queryAudit(ctx.app.db, ctx.principal.projectId, auditFilterFrom(input), {
        limit: input.limit ?? 50,
        next: input.cursor,
      });
      return { entries: page.items.map(auditEntryToWire), next: page.next };
    }),
  /** The export Settings downloads: what GET /api/audit/export streams (JSON lines, newest first), for a session. */
  export: ownerProcedure.input(auditFilterInput).mutation(async ({ ctx, input }) => {
    const lines: string[] = [];
    for await (const entry of allAuditEntries(ctx.app.db, ctx.principal.projectId, auditFilterFrom(input)))
      lines.push(JSON.stringify(auditEntryToWire(entry)));
    return { jsonl: lines.map((line) => `${line}\n`).join("") };
  }),
});
