import { z } from "zod";
import { pageBody, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/server/core/windowing";
import { auditExportResponse } from "./export-audit";
import { queryAudit } from "./query-audit";
import { auditEntryToWire, auditEntryWire, auditFilterFrom, auditFilterInput } from "./wire";

const TAG = "audit";

export const auditRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/audit",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary: "The project's audit log, newest first, filtered and paged (owners only)",
    query: auditFilterInput.extend({
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
      next: z.string().uuid("next must be the cursor returned by the previous page").optional(),
    }),
    response: pageSchema("audit_entries", auditEntryWire),
    handler: async ({ ctx, query }) => {
      const page = await queryAudit(ctx.app.db, ctx.principal.projectId, auditFilterFrom(query), {
        limit: query.limit ?? DEFAULT_PAGE_SIZE,
        next: query.next,
      });
      return pageBody("audit_entries", page, auditEntryToWire);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/audit/export",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary: "The project's audit log as JSON lines, newest first, with the same filters (owners only)",
    query: auditFilterInput,
    headers: {
      "Content-Disposition": {
        description: "`attachment` with the export's file name",
        schema: z.string().startsWith("attachment"),
      },
    },
    noJsonBody: {
      description: "One audit entry (as in GET /api/audit) per line",
      contentTypes: ["application/x-ndjson"],
    },
    handler: async ({ ctx, query }) => auditExportResponse(ctx.app.db, ctx.principal.projectId, auditFilterFrom(query)),
  }),
];
