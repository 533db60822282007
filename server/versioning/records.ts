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
  name: string | null;
  description: string | null;
  flags: Record<string, boolean>;
  tags: Record<string, unknown>;
  meta: Record<string, unknown>;
  updatedAt: Date | null;
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

/** The editable header every artifact, variant and revision carries. */
export interface EntityHeader {
  name?: string | null;
  description?: string | null;
  flags?: Record<string, boolean>;
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}
