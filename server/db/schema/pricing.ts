import { sql } from "drizzle-orm";
import { jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * A project's own price for one model (server/pricing): USD per million tokens per usage kind,
 * winning over the catalog from the moment it is set. Provider and model are unique without case.
 */
export const modelPrices = pgTable(
  "model_prices",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    /** `{prompt, completion, cache_read?, cache_write?, cache_write_1h?, reasoning?}`, USD per million tokens. */
    prices: jsonb("prices").$type<Record<string, number>>().notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    updatedById: uuid("updated_by_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("model_prices_model_idx").on(t.projectId, sql`lower(${t.provider})`, sql`lower(${t.model})`)],
);
