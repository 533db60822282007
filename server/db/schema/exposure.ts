import { pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * What a project exposes to agent clients (server/exposure): one row per deployed agent
 * (`kind = 'agent'`: the agent's slug at an environment's slug) or prompt application
 * (`kind = 'prompt'`). `name` is the owner's name for it (a tool or prompt name); null means the
 * default `<slug>@<environment>`. No row: nothing is exposed (the default).
 */
export const exposures = pgTable(
  "exposures",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    environment: text("environment").notNull(),
    name: text("name"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("exposures_project_kind_slug_env").on(t.projectId, t.kind, t.slug, t.environment)],
);
