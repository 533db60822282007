import { doublePrecision, pgTable, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * A project's rule for deploying to production: the revision must have a finished evaluation on
 * this testset, scored by this evaluator, whose mean score is at least `min_score`. One per project;
 * no row means production takes any deploy.
 */
export const deployGates = pgTable("deploy_gates", {
  projectId: uuid("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** Testset and evaluator artifacts: any of their revisions counts. */
  testsetId: uuid("testset_id").notNull(),
  evaluatorId: uuid("evaluator_id").notNull(),
  minScore: doublePrecision("min_score").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  updatedById: uuid("updated_by_id").references(() => users.id, { onDelete: "set null" }),
});
