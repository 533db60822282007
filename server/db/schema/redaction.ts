import { boolean, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * A project's redaction before storage (server/redaction). No row: nothing is redacted, as before
 * redaction existed.
 */
export const redactionSettings = pgTable("redaction_settings", {
  projectId: uuid("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** Built-in kinds: email, phone, card, iban, secret. */
  kinds: text("kinds").array().notNull(),
  /** The project's own patterns: [{name, pattern}], RE2 syntax. */
  patterns: jsonb("patterns").$type<{ name: string; pattern: string }[]>().notNull(),
  /** Also redact what is sent to the model. */
  modelInput: boolean("model_input").notNull().default(false),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
