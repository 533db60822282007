import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Database } from "@/server/db";
import { oauthCodes, oauthTokens } from "@/server/db/schema";
import { hashSecret, newSecret, s256 } from "./token-material";

const ACCESS_TTL_S = 3600;
const REFRESH_TTL_MS = 30 * 24 * 3600_000;

/** The token endpoint's form (RFC 6749 4.1.3 and 6), public clients only. */
export const tokenRequest = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("authorization_code"),
    code: z.string().min(1),
    code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, "code_verifier: 43 to 128 unreserved characters"),
    redirect_uri: z.string().min(1),
    client_id: z.string().min(1),
    resource: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(1),
    client_id: z.string().min(1),
    resource: z.string().optional(),
    scope: z.string().optional(),
  }),
]);
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenWire = z.strictObject({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string(),
});

const invalidGrant = (detail: string) => new BadRequestError(detail, "invalid_grant");

/**
 * Exchanges a code (once, with its PKCE verifier, by the client and redirect URI it was issued
 * to) or a refresh token (rotated: the old pair stops working) for an access token and a refresh
 * token, stored by their hashes.
 */
export async function exchangeToken(db: Database, request: TokenRequest, now: Date) {
  return db.transaction(async (tx) => {
    let grant: { clientId: string; projectId: string; userId: string; scopes: string[] };
    if (request.grant_type === "authorization_code") {
      const [code] = await tx
        .update(oauthCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(oauthCodes.codeHash, hashSecret(request.code)),
            isNull(oauthCodes.usedAt),
            gt(oauthCodes.expiresAt, now),
          ),
        )
        .returning();
      if (!code) throw invalidGrant("The code is unknown, used or expired; authorize again");
      if (code.clientId !== request.client_id || code.redirectUri !== request.redirect_uri)
        throw invalidGrant("The code was issued to another client or redirect_uri");
      if (s256(request.code_verifier) !== code.codeChallenge)
        throw invalidGrant("code_verifier does not match the code_challenge");
      grant = code;
    } else {
      const [old] = await tx
        .update(oauthTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(oauthTokens.refreshHash, hashSecret(request.refresh_token)),
            isNull(oauthTokens.revokedAt),
            gt(oauthTokens.refreshExpiresAt, now),
          ),
        )
        .returning();
      if (!old || old.clientId !== request.client_id)
        throw invalidGrant("The refresh token is unknown, used, revoked or expired; authorize again");
      grant = old;
    }
    const access = newSecret("mcpat_");
    const refresh = newSecret("mcprt_");
    await tx.insert(oauthTokens).values({
      id: newId(),
      accessHash: hashSecret(access),
      refreshHash: hashSecret(refresh),
      clientId: grant.clientId,
      projectId: grant.projectId,
      userId: grant.userId,
      scopes: grant.scopes,
      expiresAt: new Date(now.getTime() + ACCESS_TTL_S * 1000),
      refreshExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
      createdAt: now,
    });
    return {
      access_token: access,
      token_type: "Bearer" as const,
      expires_in: ACCESS_TTL_S,
      refresh_token: refresh,
      scope: grant.scopes.join(" "),
    };
  });
}
