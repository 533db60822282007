import { pgTable, text } from "drizzle-orm/pg-core";

/** A value sealed at first boot; opening it at every boot proves the secret key is the same one. */
export const secretKeyChecks = pgTable("secret_key_checks", {
  id: text("id").primaryKey(),
  sealed: text("sealed").notNull(),
});
