import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { testStoredConnection } from "./test-connection";

/** Beside the vault's routes: testing a connection runs a model, so it lives with the runner. */
export const connectionTestRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/vault/v1/secrets/{id}/test",
    auth: "api_key",
    tag: "vault",
    summary:
      "Test a stored connection with one tiny generation (mutating: runs the model); answers ok or the reason it failed",
    params: z.object({ id: z.string().uuid() }),
    response: z.strictObject({
      count: z.literal(1),
      test: z.strictObject({ ok: z.boolean(), model: z.string(), ms: z.number(), message: z.string().optional() }),
    }),
    errors: [
      "connection_mismatch",
      "missing_connection",
      "not_a_connection",
      "secret_not_found",
      "unknown_connection",
      "unknown_provider",
      "unresolved_provider",
    ],
    handler: async ({ ctx, params }) => ({
      count: 1,
      test: await testStoredConnection(ctx.app, ctx.principal.projectId, params.id),
    }),
  }),
];
