import type { artifacts, variants } from "@/server/db/schema";

export type ArtifactRecord = typeof artifacts.$inferSelect;
export type VariantRecord = typeof variants.$inferSelect;

/** A revision with the slugs of its artifact and variant, as every response and event needs them. */
export interface RevisionRecord {
  id: string;
  slug: string;
  version: number;
  data?: Record<string, unknown>;
  message: string | null;
  authorId: string | null;
  createdAt: Date;
  deletedAt: Date | null;
  artifactId: string;
  artifactSlug: string;
  variantId: string;
  variantSlug: string;
}

export interface Scope {
  projectId: string;
  userId: string;
}
