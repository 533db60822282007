import { z } from "zod";
import { isoTimestampSchema, toIso } from "@/server/core/time";
import { windowingSchema } from "@/server/core/windowing";
import { one, oneSchema, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { refSchema } from "@/server/versioning";
import { scopeOf } from "@/server/versioning";
import { pageBody } from "@/server/http/envelope";
import { fetchTestcase, queryTestcasesOf, readTestcases } from "./testcase-reads";
import type { TestcaseRecord } from "@/server/versioning";

function testcaseToWire(t: TestcaseRecord) {
  return { id: t.id, testset_id: t.testsetId, data: t.data, created_at: toIso(t.createdAt) };
}

const testcaseWire = z.strictObject({
  id: z.string().uuid(),
  testset_id: z.string().uuid(),
  data: z.record(z.string(), z.unknown()),
  created_at: isoTimestampSchema,
});
const testcasePage = pageSchema("testcases", testcaseWire);

export const testcaseRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/testcases/{id}",
    auth: "api_key",
    tag: "testsets",
    summary: "Fetch a testcase by id",
    params: z.object({ id: z.string().uuid() }),
    response: oneSchema("testcase", testcaseWire),
    errors: ["not_found"],
    handler: async ({ ctx, params }) =>
      one("testcase", testcaseToWire(await fetchTestcase(ctx.app.db, scopeOf(ctx), params.id))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/testcases/",
    auth: "api_key",
    tag: "testsets",
    summary: "List testcases, oldest first (?testset_id=, ?testcase_ids=a,b, ?limit=, ?next=)",
    query: z.strictObject({
      testset_id: z.string().uuid().optional(),
      testcase_ids: z
        .string()
        .transform((v) =>
          v
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        )
        .pipe(z.array(z.string().uuid("testcase_ids holds comma-separated testcase ids")).max(1000))
        .optional(),
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      next: z.string().uuid().optional(),
    }),
    response: testcasePage,
    handler: async ({ ctx, query }) =>
      pageBody(
        "testcases",
        await readTestcases(
          ctx.app.db,
          scopeOf(ctx),
          { ids: query.testcase_ids, testsetId: query.testset_id, windowing: { limit: query.limit, next: query.next } },
          "testcases.fetched",
        ),
        testcaseToWire,
      ),
  }),
  defineRoute({
    method: "POST",
    path: "/api/testcases/query",
    auth: "api_key",
    role: "viewer",
    tag: "testsets",
    summary: "Query testcases by ids, testset, or testset revision (in the revision's row order)",
    body: z.strictObject({
      testcase_ids: z.array(z.string().uuid()).max(10_000).optional(),
      testset_id: z.string().uuid().optional(),
      testset_revision_id: z.string().uuid().optional(),
      // The compat API's way to name the revision: resolved like a retrieve.
      testset_ref: refSchema.nullish(),
      testset_variant_ref: refSchema.nullish(),
      testset_revision_ref: refSchema.nullish(),
      windowing: windowingSchema.optional(),
    }),
    response: testcasePage,
    errors: [
      "ambiguous_reference",
      "missing_filter",
      "key_without_environment",
      "missing_key",
      "missing_reference",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "version_without_context",
    ],
    handler: async ({ ctx, body }) =>
      pageBody(
        "testcases",
        await queryTestcasesOf(ctx.app.db, scopeOf(ctx), {
          ids: body.testcase_ids,
          testsetId: body.testset_id,
          revisionId: body.testset_revision_id,
          revisionRefs: {
            artifact: body.testset_ref ?? undefined,
            variant: body.testset_variant_ref ?? undefined,
            revision: body.testset_revision_ref ?? undefined,
          },
          windowing: body.windowing,
        }),
        testcaseToWire,
      ),
  }),
];
