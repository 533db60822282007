import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";

// Property names are the ones better-auth's Drizzle adapter expects of its `user` model.
export const users = pgTable("users", {
  id: uuid("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    // The project the playground uses until logins exist; at most one row has it set.
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("projects_single_default_idx")
      .on(t.isDefault)
      .where(sql`is_default`),
  ],
);

export const projectMembers = pgTable(
  "project_members",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // owner | member | viewer (server/core/roles.ts).
    role: text("role").notNull().default("owner"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name"),
    // The first characters of the key, shown in listings so a person can tell keys apart.
    prefix: text("prefix").notNull(),
    // SHA-256 of the whole key; the key itself is never stored.
    hash: text("hash").notNull().unique(),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    // read | run | ingest | full (server/core/key-scopes.ts); keys made before scopes existed are full.
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{full}'::text[]`),
    // Past this time the key is refused with 401 `expired_api_key`; null never expires.
    expiresAt: ts("expires_at"),
  },
  (t) => [index("api_keys_project_idx").on(t.projectId, t.createdAt)],
);

/** Values the instance makes for itself once (the session-signing secret when AUTH_SECRET is unset). */
export const instanceSettings = pgTable("instance_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
