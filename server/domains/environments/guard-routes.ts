import { z } from "zod";
import { one, oneSchema } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { getArtifact, getSimple, scopeOf, simpleToWire, simpleWireSchema, updateArtifact } from "@/server/versioning";
import { environmentsSpec } from "./spec";

const keys = environmentsSpec.keys;

/** `POST /api/simple/environments/{id}/guard` and `/unguard`: set or clear `flags.is_guarded` (guard.ts). */
export const guardRoutes: AnyRoute[] = [true, false].map((guarded) =>
  defineRoute({
    method: "POST",
    path: `/api/simple/environments/{id}/${guarded ? "guard" : "unguard"}`,
    auth: "api_key",
    role: "owner",
    tag: "simple environments",
    summary: guarded
      ? "Guard an environment: only owners commit or deploy to it until it is unguarded"
      : "Unguard an environment: members commit and deploy to it again",
    params: z.object({ id: z.string().uuid() }),
    response: oneSchema(keys.one, simpleWireSchema()),
    errors: ["archived", "not_found"],
    handler: async ({ ctx, params }) => {
      const scope = scopeOf(ctx);
      const current = await getArtifact(ctx.app.db, scope, environmentsSpec, params.id);
      await updateArtifact(ctx.app.db, scope, environmentsSpec, params.id, {
        flags: { ...current.flags, is_guarded: guarded },
      });
      return one(keys.one, simpleToWire(keys, await getSimple(ctx.app.db, scope, environmentsSpec, params.id)));
    },
  }),
);
