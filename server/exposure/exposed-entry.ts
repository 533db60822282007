import { eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { exposures } from "@/server/db/schema";
import { exposedName, type ExposureKind } from "./exposure-input";

/** An exposure as its owner wrote it: what a call names, before anything says it is deployed. */
export interface ExposedEntry {
  kind: ExposureKind;
  name: string;
  slug: string;
  environment: string;
}

/**
 * The entry a call names, from the exposure rows alone (one query): a call's own turn resolves the
 * revision the environment runs (and refuses when it runs none), so the call path does not read
 * every environment's state the way the lists (`exposedNow`) must.
 */
export async function exposedEntry(
  db: Executor,
  projectId: string,
  kind: ExposureKind,
  name: string,
): Promise<ExposedEntry | undefined> {
  const rows = await db.select().from(exposures).where(eq(exposures.projectId, projectId));
  const row = rows.find((candidate) => candidate.kind === kind && exposedName(candidate) === name);
  return row && { kind, name, slug: row.slug, environment: row.environment };
}
