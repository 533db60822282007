import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * A project's stored credentials (provider keys, custom OpenAI-compatible providers, plain named
 * secrets). `sealed` is the secret's data sealed by the SecretBox; `key_tail` (last 4 characters of
 * the key or value) is all a response shows.
 */
export const vaultSecrets = pgTable(
  "vault_secrets",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    kind: text("kind").notNull(),
    /** The provider id, `custom`, or null for a plain `secret` (which no model resolution reads). */
    provider: text("provider"),
    sealed: text("sealed").notNull(),
    keyTail: text("key_tail"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("vault_secrets_slug_idx").on(t.projectId, t.slug),
    index("vault_secrets_provider_idx").on(t.projectId, t.provider),
  ],
);
