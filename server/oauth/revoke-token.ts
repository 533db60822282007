import { and, eq, isNull, or } from "drizzle-orm";
import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { oauthTokens } from "@/server/db/schema";
import { hashSecret } from "./token-material";

/** RFC 7009 2.1: the token, an optional hint of its type, and the public client's id. */
export const revokeRequest = z.object({
  token: z.string().min(1),
  token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
  client_id: z.string().min(1),
});

/**
 * Revokes a grant by either of its tokens (RFC 7009): an access token and its refresh token are
 * one row, so revoking one stops both (the RFC allows it, and a client signing out means both).
 * An unknown, expired or already revoked token is not an error (2.2: the client cannot act on
 * it); a token issued to another client is refused.
 */
export async function revokeToken(db: Executor, request: z.infer<typeof revokeRequest>, now: Date): Promise<void> {
  const hash = hashSecret(request.token);
  const [row] = await db
    .select({ id: oauthTokens.id, clientId: oauthTokens.clientId })
    .from(oauthTokens)
    .where(or(eq(oauthTokens.accessHash, hash), eq(oauthTokens.refreshHash, hash)));
  if (!row) return;
  if (row.clientId !== request.client_id)
    throw new BadRequestError("The token was issued to another client", "invalid_grant");
  await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokens.id, row.id), isNull(oauthTokens.revokedAt)));
}
