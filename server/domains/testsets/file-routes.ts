import { z } from "zod";
import { one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import {
  commitInTransaction,
  createSimple,
  editSimple,
  fetchRevision,
  getSimple,
  responseSchemas,
  revisionToWire,
  scopeOf,
  simpleToWire,
  simpleWireSchema,
} from "@/server/versioning";
import { testsetsSpec } from "./spec";
import { serializeTestset, storedRows, TESTSET_FILE_TYPES, type TestsetFileType } from "./testset-files";
import { readTestsetUpload } from "./upload-form";

/**
 * The reference's testset file routes: a testset made, edited or given a new revision from a CSV
 * or JSON file, and a testset or revision written as one. A bad file is a 400 naming the row
 * (testset-files.ts); the limits are the API's (8 MiB, 50,000 rows).
 */
const keys = testsetsSpec.keys;
const tag = "testsets";
const idParams = z.object({ id: z.string().uuid() });
const simple = oneSchema(keys.one, simpleWireSchema());
const upload = {
  contentTypes: ["multipart/form-data"],
  description:
    "`file` (the testset), `file_type` csv (default) or json, and optional `testset_name`, `testset_description`, `testset_tags` and `testset_meta` (JSON objects)",
};
const uploadErrors = [
  "bad_request",
  "invalid_testcases",
  "payload_too_large",
  "too_many_testcases",
  "validation_error",
] as const;
const downloadQuery = z.object({
  file_type: z.enum(TESTSET_FILE_TYPES),
  file_name: z.string().min(1).max(200).optional(),
});
const downloadDoc = {
  noJsonBody: { description: "The rows as a file", contentTypes: ["text/csv", "application/json"] },
  headers: {
    "Content-Disposition": {
      description: "`attachment` with the file's name",
      schema: z.string().startsWith("attachment"),
    },
  },
};

function fileResponse(
  rows: ReturnType<typeof storedRows>,
  type: TestsetFileType,
  name: string | undefined,
  fallback: string,
): Response {
  const base = (name ?? fallback).replace(/\.(csv|json)$/i, "").replace(/[^\w.-]+/g, "_");
  return new Response(serializeTestset(rows, type), {
    headers: {
      "content-type": type === "json" ? "application/json" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${base}.${type}"`,
    },
  });
}

export const testsetFileRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/simple/testsets/upload",
    auth: "api_key",
    tag,
    summary: "Create a testset from a CSV or JSON file (its default variant and revision 1 hold the rows)",
    rawBody: upload,
    response: simple,
    errors: [...uploadErrors, "slug_taken"],
    handler: async ({ ctx }) => {
      const file = await readTestsetUpload(ctx.request);
      const entity = await createSimple(ctx.app.db, scopeOf(ctx), testsetsSpec, {
        name: file.name,
        description: file.description,
        tags: file.tags,
        meta: file.meta,
        data: { testcases: file.rows },
      });
      return one(keys.one, simpleToWire(keys, entity));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/simple/testsets/{id}/upload",
    auth: "api_key",
    tag,
    summary: "Replace a testset's rows with a CSV or JSON file: a new revision (name, description, tags, meta as sent)",
    params: idParams,
    rawBody: upload,
    response: simple,
    errors: [...uploadErrors, "archived", "not_found"],
    handler: async ({ ctx, params }) => {
      const file = await readTestsetUpload(ctx.request);
      const header = Object.fromEntries(
        Object.entries({ name: file.name, description: file.description, tags: file.tags, meta: file.meta }).filter(
          ([, value]) => value !== undefined,
        ),
      );
      const entity = await editSimple(ctx.app.db, scopeOf(ctx), testsetsSpec, params.id, {
        ...header,
        data: { testcases: file.rows },
        message: "Upload",
      });
      return one(keys.one, simpleToWire(keys, entity));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/simple/testsets/{id}/download",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "A testset's latest rows as a CSV or JSON file (?file_type=csv|json, ?file_name=)",
    params: idParams,
    query: downloadQuery,
    ...downloadDoc,
    errors: ["not_found"],
    handler: async ({ ctx, params, query }) => {
      const { revision } = await getSimple(ctx.app.db, scopeOf(ctx), testsetsSpec, params.id);
      return fileResponse(storedRows(revision?.data), query.file_type, query.file_name, `testset_${params.id}`);
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/testsets/revisions/{id}/upload",
    auth: "api_key",
    tag,
    summary: "Commit a new revision from a CSV or JSON file on the variant of the given revision",
    params: idParams,
    rawBody: upload,
    response: responseSchemas(keys).revision,
    errors: [...uploadErrors, "archived", "not_found"],
    handler: async ({ ctx, params }) => {
      const scope = scopeOf(ctx);
      const base = await fetchRevision(ctx.app.db, scope, testsetsSpec, params.id);
      const file = await readTestsetUpload(ctx.request);
      const { revision } = await ctx.app.db.transaction((tx) =>
        commitInTransaction(tx, scope, testsetsSpec, {
          variantId: base.variantId,
          data: { ...base.data, testcases: file.rows },
          message: "Upload",
        }),
      );
      return one(keys.revision, revisionToWire(keys, revision));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/testsets/revisions/{id}/download",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "A testset revision's rows as a CSV or JSON file (?file_type=csv|json, ?file_name=)",
    params: idParams,
    query: downloadQuery,
    ...downloadDoc,
    errors: ["not_found"],
    handler: async ({ ctx, params, query }) => {
      const revision = await fetchRevision(ctx.app.db, scopeOf(ctx), testsetsSpec, params.id);
      return fileResponse(storedRows(revision.data), query.file_type, query.file_name, `testset_revision_${params.id}`);
    },
  }),
];
