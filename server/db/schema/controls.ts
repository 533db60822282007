import { sql } from "drizzle-orm";
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/** Who a budget, rate limit or allowlist applies to; `target_id` names the agent or key (null for the project). */
export type ControlScope = "project" | "agent" | "api_key";

/**
 * A spending limit in USD over a calendar window (day, week from Monday, calendar month) read in
 * `time_zone`. Crossing `warn_percent` of the limit and the limit itself each emit an event once
 * per window; past the limit new turns are refused (server/controls/README.md).
 */
export const budgets = pgTable(
  "budgets",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    scope: text("scope").$type<ControlScope>().notNull(),
    targetId: uuid("target_id"),
    name: text("name").notNull(),
    window: text("window").$type<"day" | "week" | "month">().notNull(),
    timeZone: text("time_zone").notNull(),
    limitUsd: doublePrecision("limit_usd").notNull(),
    warnPercent: integer("warn_percent").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("budgets_project_idx").on(t.projectId)],
);

/** What a budget's window has spent: one row per budget and window, added to once per model step. */
export const budgetSpend = pgTable(
  "budget_spend",
  {
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    windowStart: ts("window_start").notNull(),
    spentUsd: doublePrecision("spent_usd").notNull(),
  },
  (t) => [primaryKey({ columns: [t.budgetId, t.windowStart] })],
);

/** Requests and tokens per minute for one API key or agent, or (target null) for each of the project's keys or agents. */
export const modelRateLimits = pgTable(
  "model_rate_limits",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    scope: text("scope").$type<Exclude<ControlScope, "project">>().notNull(),
    targetId: uuid("target_id"),
    requestsPerMinute: integer("requests_per_minute"),
    tokensPerMinute: integer("tokens_per_minute"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("model_rate_limits_target_idx").on(
      t.projectId,
      t.scope,
      sql`coalesce(${t.targetId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

/** Model patterns (`anthropic/*`, `openai/gpt-5-mini`) a project, or one of its API keys, may run. */
export const modelAllowlists = pgTable(
  "model_allowlists",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    scope: text("scope").$type<"project" | "api_key">().notNull(),
    targetId: uuid("target_id"),
    patterns: jsonb("patterns").$type<string[]>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("model_allowlists_target_idx").on(
      t.projectId,
      t.scope,
      sql`coalesce(${t.targetId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

/** One entry of an alias: a provider/model pair, optionally weighted, optionally through a stored connection. */
export interface AliasEntry {
  provider: string;
  model: string;
  weight?: number;
  connection?: string;
}

/** A name a template can use as its model, standing for an ordered list of fallbacks. */
export const modelAliases = pgTable(
  "model_aliases",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    entries: jsonb("entries").$type<AliasEntry[]>().notNull(),
    /** How long an entry has to send its first part before the next is tried. */
    attemptTimeoutMs: integer("attempt_timeout_ms").notNull().default(15_000),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("model_aliases_name_idx").on(t.projectId, t.name)],
);

/** rate-limiter-flexible's PostgreSQL store (its Drizzle adapter): one counter per key and fixed window. */
export const rateLimitPoints = pgTable("rate_limit_points", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: ts("expire"),
});
