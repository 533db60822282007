import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * OAuth clients registered through dynamic client registration (RFC 7591) by MCP clients
 * (server/oauth). Public clients only (PKCE, no secret): nothing here is a credential.
 */
export const oauthClients = pgTable("oauth_clients", {
  id: uuid("id").primaryKey(),
  clientName: text("client_name"),
  redirectUris: text("redirect_uris").array().notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * An authorization code a signed-in user granted a client on the consent page, for one project.
 * Stored by its SHA-256 hash; used once (`used_at`), short-lived.
 */
export const oauthCodes = pgTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  clientId: uuid("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  projectId: uuid("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  scopes: text("scopes").array().notNull(),
  resource: text("resource"),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});

/**
 * Access and refresh tokens issued to a client for one project and user, stored by their SHA-256
 * hashes; a token acts with its scopes and the user's current role, like an API key.
 */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: uuid("id").primaryKey(),
    accessHash: text("access_hash").notNull().unique(),
    refreshHash: text("refresh_hash").unique(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    expiresAt: ts("expires_at").notNull(),
    refreshExpiresAt: ts("refresh_expires_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("oauth_tokens_project").on(t.projectId)],
);
