import { z } from "zod";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { defineRoute, type AnyRoute, type RequestContext } from "@/server/http/route";
import type { Scope } from "../records";

export function scopeOf(ctx: RequestContext<"api_key">): Scope {
  return { projectId: ctx.principal.projectId, userId: ctx.principal.userId };
}

export const idParams = z.object({ id: z.string().uuid() });

/** The fields of an edit body (`{<entity>: {id?, ...}}`); an id that is not the path's is a 400. */
export function editedFields<T>(body: Record<string, unknown>, key: string, pathId: string): T {
  const { id, ...fields } = body[key] as { id?: string };
  if (id !== undefined && id !== pathId)
    throw new BadRequestError(`${key}.id ${id} does not match the id in the path, ${pathId}`, "id_mismatch");
  return fields as T;
}

/** `POST <base>/{id}/archive` and `/unarchive` for one kind of entity; `archive` returns the response body. */
export function archiveRoutes(
  base: string,
  tag: string,
  what: { entity: string; archivedSummary: string; response: z.ZodType },
  archive: (ctx: RequestContext<"api_key">, id: string, archived: boolean) => Promise<unknown>,
): AnyRoute[] {
  return [true, false].map((archived) =>
    defineRoute({
      method: "POST",
      path: `${base}/{id}/${archived ? "archive" : "unarchive"}`,
      auth: "api_key",
      tag,
      summary: archived ? what.archivedSummary : `Unarchive a ${what.entity}`,
      params: idParams,
      response: what.response,
      errors: ["not_found"],
      handler: async ({ ctx, params }) => archive(ctx, params.id, archived),
    }),
  );
}

/**
 * A read of a reference to nothing, as the compat API answers it: `200 {count: 0}` (its clients
 * test `count`), with the 404's text as `detail` so a person still sees what was not found.
 */
export const nothingSchema = z.strictObject({
  count: z.literal(0),
  detail: z.string().describe("What was not found (a reference to nothing, a variant without revisions)"),
});

export async function orNothing<T>(read: () => Promise<T>): Promise<T | z.infer<typeof nothingSchema>> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError && (error.code === "not_found" || error.code === "no_variant"))
      return { count: 0, detail: error.message };
    throw error;
  }
}
