import { z } from "zod";
import { toIso } from "@/server/core/time";
import { windowingSchema } from "@/server/core/windowing";
import { one } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { scopeOf } from "@/server/versioning/routes";
import { Lookup } from "@/server/versioning";
import { fetchTestcase, readTestcases } from "./testcase-reads";
import type { TestcaseRecord } from "./testcase-store";
import { testsetsSpec } from "./spec";

function testcaseToWire(t: TestcaseRecord) {
  return { id: t.id, testset_id: t.testsetId, data: t.data, created_at: toIso(t.createdAt) };
}

function pageOf(page: { items: TestcaseRecord[]; next?: string }) {
  return { count: page.items.length, testcases: page.items.map(testcaseToWire), ...(page.next ? { windowing: { next: page.next } } : {}) };
}

export const testcaseRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/testcases/{id}",
    auth: "api_key",
    tag: "testsets",
    summary: "Fetch a testcase by id",
    params: z.object({ id: z.string().uuid() }),
    handler: async ({ ctx, params }) => one("testcase", testcaseToWire(await fetchTestcase(ctx.app.db, scopeOf(ctx), params.id))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/testcases/",
    auth: "api_key",
    tag: "testsets",
    summary: "List testcases, oldest first (?testset_id=, ?limit=, ?next=)",
    query: z.strictObject({
      testset_id: z.string().uuid().optional(),
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      next: z.string().uuid().optional(),
    }),
    handler: async ({ ctx, query }) =>
      pageOf(
        await readTestcases(ctx.app.db, scopeOf(ctx), { testsetId: query.testset_id, windowing: { limit: query.limit, next: query.next, order: "ascending" } }, "testcases.fetched"),
      ),
  }),
  defineRoute({
    method: "POST",
    path: "/api/testcases/query",
    auth: "api_key",
    tag: "testsets",
    summary: "Query testcases by ids, testset, or testset revision (in the revision's row order)",
    body: z.strictObject({
      testcase_ids: z.array(z.string().uuid()).max(10_000).optional(),
      testset_id: z.string().uuid().optional(),
      testset_revision_id: z.string().uuid().optional(),
      windowing: windowingSchema.optional(),
    }),
    handler: async ({ ctx, body }) => {
      const scope = scopeOf(ctx);
      let ids = body.testcase_ids;
      if (body.testset_revision_id) {
        // A lookup, not a fetch: this read is testcases.queried, not testsets.revisions.fetched.
        const revision = await new Lookup(ctx.app.db, scope.projectId, testsetsSpec.keys).revision({ id: body.testset_revision_id }, "testset_revision_id");
        const rows = (revision.data?.testcases ?? []) as { id: string }[];
        ids = rows.map((r) => r.id).filter((id) => !ids || ids.includes(id));
      }
      const page = await readTestcases(ctx.app.db, scope, { ids, testsetId: body.testset_id, windowing: body.windowing }, "testcases.queried");
      if (!body.testset_revision_id) return pageOf(page);
      const order = new Map(ids!.map((id, i) => [id, i]));
      return pageOf({ ...page, items: [...page.items].sort((a, b) => order.get(a.id)! - order.get(b.id)!) });
    },
  }),
];
