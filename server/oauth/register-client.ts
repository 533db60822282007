import { z } from "zod";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { oauthClients } from "@/server/db/schema";

const REFUSED_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:"]);
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A redirect URI a client may register: https, http only to a loopback address (a desktop
 * client's local listener), or an app's own scheme (`cursor://`, `vscode://`); never one a browser
 * would run or read locally.
 */
export const redirectUri = z.string().refine(
  (value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    if (REFUSED_SCHEMES.has(url.protocol) || url.hash) return false;
    return url.protocol !== "http:" || LOOPBACK.has(url.hostname);
  },
  {
    error: "redirect_uris: absolute URLs, https (http only to 127.0.0.1 or localhost) or an app's scheme, no fragment",
  },
);

/**
 * RFC 7591 client metadata. Not strict: clients send fields this server does not use (`logo_uri`,
 * `grant_types`, ...), which the RFC says a server may ignore.
 */
export const clientRegistrationInput = z.object({
  redirect_uris: z.array(redirectUri).min(1).max(10),
  client_name: z.string().max(200).optional(),
});

export const clientRegistrationWire = z.strictObject({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string().optional(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.literal("none"),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
});

/** Registers a public client (no secret: PKCE proves the code's requester). */
export async function registerClient(db: Executor, input: z.infer<typeof clientRegistrationInput>, now: Date) {
  const id = newId();
  await db.insert(oauthClients).values({
    id,
    clientName: input.client_name ?? null,
    redirectUris: input.redirect_uris,
    createdAt: now,
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(input.client_name && { client_name: input.client_name }),
    redirect_uris: input.redirect_uris,
    token_endpoint_auth_method: "none" as const,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}
