import { z } from "zod";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { secretInputSchema } from "./secret-input";
import { secretToWire, secretWire } from "./wire";

const oneSecret = oneSchema("secret", secretWire);
import { vaultOf } from "./vault-store";

const idParams = z.object({ id: z.string().uuid() });

/** `/api/vault/v1/secrets/`: provider keys, custom providers and plain secrets. POST, PUT and DELETE are mutating. */
export const vaultRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/vault/v1/secrets/",
    auth: "api_key",
    tag: "vault",
    response: oneSecret,
    summary:
      "Store a provider key, a custom OpenAI-compatible provider or a plain secret for tools (mutating); the key or value is never returned",
    body: secretInputSchema,
    status: 201,
    errors: ["bad_request", "egress_refused", "empty_value", "missing_key", "missing_value", "slug_taken"],
    handler: async ({ ctx, body }) =>
      one("secret", secretToWire(await vaultOf(ctx.app).create(ctx.principal.projectId, body))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/vault/v1/secrets/",
    auth: "api_key",
    tag: "vault",
    response: manySchema("secrets", secretWire),
    summary: "List the project's secrets (keys and values masked)",
    handler: async ({ ctx }) =>
      many("secrets", (await vaultOf(ctx.app).list(ctx.principal.projectId)).map(secretToWire)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/vault/v1/secrets/{id}",
    auth: "api_key",
    tag: "vault",
    response: oneSecret,
    summary: "One secret (key or value masked)",
    params: idParams,
    errors: ["secret_not_found"],
    handler: async ({ ctx, params }) =>
      one("secret", secretToWire(await vaultOf(ctx.app).get(ctx.principal.projectId, params.id))),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/vault/v1/secrets/{id}",
    auth: "api_key",
    tag: "vault",
    response: oneSecret,
    summary:
      "Replace a secret's header and data (mutating); omit the key or value to keep the stored one; the kind cannot change",
    params: idParams,
    body: secretInputSchema,
    errors: ["egress_refused", "empty_value", "kind_change", "secret_not_found"],
    handler: async ({ ctx, params, body }) =>
      one("secret", secretToWire(await vaultOf(ctx.app).update(ctx.principal.projectId, params.id, body))),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/vault/v1/secrets/{id}",
    auth: "api_key",
    tag: "vault",
    response: oneSecret,
    summary: "Delete a secret (mutating)",
    params: idParams,
    errors: ["secret_not_found"],
    handler: async ({ ctx, params }) =>
      one("secret", secretToWire(await vaultOf(ctx.app).delete(ctx.principal.projectId, params.id))),
  }),
];
