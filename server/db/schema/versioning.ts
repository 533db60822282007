import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects, users } from "./auth-tenancy";

/**
 * One set of tables for all six versioned domains (the `domain` column): the engine is written
 * once. Artifact = repository, variant = branch, revision = commit.
 */
export const artifacts = pgTable(
  "artifacts",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    flags: jsonb("flags").$type<Record<string, boolean>>().notNull().default({}),
    tags: jsonb("tags").$type<Record<string, unknown>>().notNull().default({}),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: ts("updated_at"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("artifacts_slug_idx").on(t.projectId, t.domain, t.slug),
    index("artifacts_list_idx").on(t.projectId, t.domain, t.id),
  ],
);

export const variants = pgTable(
  "variants",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    artifactId: uuid("artifact_id")
      .notNull()
      .references(() => artifacts.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    flags: jsonb("flags").$type<Record<string, boolean>>().notNull().default({}),
    tags: jsonb("tags").$type<Record<string, unknown>>().notNull().default({}),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    // The version of the newest revision; a commit locks the row and increments it.
    headVersion: integer("head_version").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("variants_slug_idx").on(t.artifactId, t.slug),
    index("variants_list_idx").on(t.projectId, t.domain, t.id),
  ],
);

export const revisions = pgTable(
  "revisions",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    artifactId: uuid("artifact_id")
      .notNull()
      .references(() => artifacts.id, { onDelete: "cascade" }),
    variantId: uuid("variant_id")
      .notNull()
      .references(() => variants.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    version: integer("version").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    message: text("message"),
    // Header metadata: the only fields a revision edit may change (data, author, date, message never).
    name: text("name"),
    description: text("description"),
    flags: jsonb("flags").$type<Record<string, boolean>>().notNull().default({}),
    tags: jsonb("tags").$type<Record<string, unknown>>().notNull().default({}),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: ts("updated_at"),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("revisions_version_idx").on(t.variantId, t.version),
    uniqueIndex("revisions_slug_idx").on(t.projectId, t.slug),
    index("revisions_list_idx").on(t.projectId, t.domain, t.id),
    index("revisions_artifact_idx").on(t.artifactId),
  ],
);

/** Testset rows, deduplicated by content per testset so an unchanged row keeps its id. */
export const testcases = pgTable(
  "testcases",
  {
    id: uuid("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    testsetId: uuid("testset_id")
      .notNull()
      .references(() => artifacts.id, { onDelete: "cascade" }),
    contentHash: text("content_hash").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("testcases_content_idx").on(t.testsetId, t.contentHash),
    index("testcases_list_idx").on(t.projectId, t.id),
  ],
);
