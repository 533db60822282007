import { z } from "zod";
import { one, many, oneSchema, manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { createAccount } from "./accounts";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys";
import { getProfile, profileWire } from "./profile";
import { accountToWire, accountWire, apiKeyToWire, apiKeyWire, createApiKeyInput } from "./wire";

const idParams = z.object({ id: z.string().uuid() });

export const authRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/profile",
    auth: "api_key",
    role: "viewer",
    tag: "keys",
    summary: "The caller's user (the reference's GET /profile, which its clients and health checks call)",
    response: profileWire,
    errors: ["not_found"],
    handler: async ({ ctx }) => getProfile(ctx.app.db, ctx.principal),
  }),
  defineRoute({
    method: "POST",
    path: "/api/keys",
    auth: "api_key",
    tag: "keys",
    summary: "Create an API key in the caller's project; the secret is returned once",
    body: createApiKeyInput,
    response: oneSchema("api_key", apiKeyWire),
    status: 201,
    errors: ["invalid_expiry", "invalid_scopes"],
    handler: async ({ ctx, body }) => {
      const { projectId, userId } = ctx.principal;
      const { apiKey, secret } = await createApiKey(ctx.app.db, {
        projectId,
        userId,
        name: body.name,
        scopes: body.scopes,
        expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        now: ctx.app.now(),
      });
      return one("api_key", apiKeyToWire(apiKey, secret));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/keys",
    auth: "api_key",
    tag: "keys",
    summary: "List the project's API keys (never their secrets)",
    response: manySchema("api_keys", apiKeyWire),
    handler: async ({ ctx }) =>
      many(
        "api_keys",
        (await listApiKeys(ctx.app.db, ctx.principal.projectId)).map((k) => apiKeyToWire(k)),
      ),
  }),
  defineRoute({
    method: "POST",
    path: "/api/keys/{id}/revoke",
    auth: "api_key",
    tag: "keys",
    summary: "Revoke an API key; later requests with it get 401",
    params: idParams,
    response: oneSchema("api_key", apiKeyWire),
    errors: ["not_found"],
    handler: async ({ ctx, params }) =>
      one("api_key", apiKeyToWire(await revokeApiKey(ctx.app.db, ctx.principal.projectId, params.id))),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/accounts",
    auth: "admin",
    tag: "admin",
    summary: "Create a user, a project and an API key (operator bootstrap; needs ADMIN_TOKEN)",
    body: z.strictObject({
      email: z.string().email(),
      name: z.string().trim().min(1).max(200).optional(),
      project_name: z.string().trim().min(1).max(200).optional(),
      key_name: z.string().trim().min(1).max(100).optional(),
    }),
    response: oneSchema("account", accountWire),
    status: 201,
    errors: ["invalid_expiry", "invalid_scopes", "user_exists"],
    handler: async ({ ctx, body }) => {
      const account = await createAccount(ctx.app.db, ctx.app.projectSetups, {
        email: body.email,
        name: body.name,
        projectName: body.project_name ?? `${body.email}'s project`,
        keyName: body.key_name,
      });
      return one("account", accountToWire(account));
    },
  }),
];
