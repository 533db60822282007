import { z } from "zod";
import { UnauthorizedError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { jsonResponse } from "@/server/http/json-response";
import { defineRoute } from "@/server/http/route";
import { isoTimestampSchema, toIso } from "@/server/core/time";
import { PROJECT_ROLES } from "@/server/core/roles";
import { authFor } from "./auth-instance";
import { previewInvite } from "./invites";
import { resolveSession } from "./session";
import { acceptInvite, createOwnerAccount, credentialsSchema, ownerExists, signUp, type Credentials } from "./sign-up";

const inviteParams = z.object({ token: z.string().min(1).max(200) });

/**
 * Playground accounts, over the session cookie (better-auth's own endpoints under /api/auth do
 * sign-in, sign-out and sessions). Every POST here is same-origin only.
 */
export const accountRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/accounts/status",
    auth: "none",
    tag: "accounts",
    summary: "Whether the owner account exists yet and whether anyone may sign up",
    response: z.strictObject({ owner_exists: z.boolean(), sign_up: z.enum(["closed", "open"]) }),
    handler: async ({ ctx }) => ({
      owner_exists: await ownerExists(ctx.app.db),
      sign_up: ctx.app.config.signUp,
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/accounts/owner",
    auth: "none",
    sameOrigin: true,
    tag: "accounts",
    summary: "Create the owner account (only while no login exists) and sign in",
    body: credentialsSchema,
    response: z.strictObject({ user_id: z.string().uuid() }),
    status: 201,
    errors: ["email_taken", "owner_exists"],
    handler: async ({ ctx, body }) => {
      const { userId } = await createOwnerAccount(ctx.app.db, ctx.app.projectSetups, body);
      return signedIn(ctx.app, ctx.request, body, { user_id: userId });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/accounts/sign-up",
    auth: "none",
    sameOrigin: true,
    tag: "accounts",
    summary: "Create an account with an invite token (or, when SIGN_UP=open, without) and sign in",
    body: credentialsSchema.extend({ invite_token: z.string().min(1).max(200).optional() }),
    response: z.strictObject({ user_id: z.string().uuid(), project_id: z.string().uuid() }),
    status: 201,
    errors: [
      "already_member",
      "email_taken",
      "invite_expired",
      "invite_not_found",
      "invite_revoked",
      "invite_used",
      "sign_up_closed",
    ],
    handler: async ({ ctx, body }) => {
      const { invite_token, ...credentials } = body;
      const created = await signUp(ctx.app.db, ctx.app.projectSetups, {
        ...credentials,
        inviteToken: invite_token,
        signUpOpen: ctx.app.config.signUp === "open",
      });
      return signedIn(ctx.app, ctx.request, credentials, { user_id: created.userId, project_id: created.projectId });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/accounts/invites/{token}",
    auth: "none",
    tag: "accounts",
    summary: "The project and role an invite link grants, or why it cannot be used",
    params: inviteParams,
    response: z.strictObject({ project_name: z.string(), role: z.enum(PROJECT_ROLES), expires_at: isoTimestampSchema }),
    errors: ["invite_expired", "invite_not_found", "invite_revoked", "invite_used"],
    handler: async ({ ctx, params }) => {
      const invite = await previewInvite(ctx.app.db, params.token);
      return { project_name: invite.projectName, role: invite.role, expires_at: toIso(invite.expiresAt) };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/accounts/invites/{token}/accept",
    auth: "none",
    sameOrigin: true,
    tag: "accounts",
    summary: "Join the invite's project as the signed-in user",
    params: inviteParams,
    response: z.strictObject({ project_id: z.string().uuid() }),
    errors: [
      "already_member",
      "invite_expired",
      "invite_not_found",
      "invite_revoked",
      "invite_used",
      "not_signed_in",
      "database_unavailable",
    ],
    handler: async ({ ctx, params }) => {
      const session = await resolveSession(ctx.app, ctx.request.headers);
      if (!session) throw new UnauthorizedError("Log in first, then open the invite link again", "not_signed_in");
      const { projectId } = await acceptInvite(ctx.app.db, session.user.id, params.token);
      return { project_id: projectId };
    },
  }),
];

/** Signs the new account in through better-auth and answers with its session cookie. */
async function signedIn(
  app: AppContext,
  request: Request,
  credentials: Credentials,
  body: Record<string, string>,
): Promise<Response> {
  const auth = await authFor(app);
  const signIn = await auth.api.signInEmail({
    body: { email: credentials.email, password: credentials.password },
    headers: request.headers,
    asResponse: true,
  });
  if (!signIn.ok) throw new Error(`Signing in the new account failed with ${signIn.status}`);
  const response = jsonResponse(201, body, "");
  for (const cookie of signIn.headers.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}
