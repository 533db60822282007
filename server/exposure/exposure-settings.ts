import { asc, eq } from "drizzle-orm";
import { recordAudit } from "@/server/audit";
import { BadRequestError, isAppError, type FieldError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { AppContext } from "@/server/core/app-context";
import type { Executor } from "@/server/db";
import { exposures } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import { DOMAIN_SPECS } from "@/server/domains";
import { Lookup } from "@/server/versioning";
import { announceExposureChange } from "./exposure-changes";
import {
  exposedName,
  type ExposureEntryInput,
  type ExposureInput,
  type ExposureKind,
  type ExposureWire,
} from "./exposure-input";

export const EXPOSURE_EVENT = "exposure.settings.updated";

/** The project's exposure as the owner set it, in the order it was given. No row: nothing is exposed. */
export async function getExposure(db: Executor, projectId: string): Promise<ExposureWire[]> {
  const rows = await db.select().from(exposures).where(eq(exposures.projectId, projectId)).orderBy(asc(exposures.id));
  return rows.map((row) => ({
    kind: row.kind as ExposureKind,
    slug: row.slug,
    environment: row.environment,
    name: exposedName(row),
    custom_name: row.name !== null,
  }));
}

/**
 * Replaces the project's exposure (owners). Each entry must name an agent (or prompt application)
 * and an environment of the project, and names must differ within a kind (they are tool and prompt
 * names). The rows, the audit entry, the event and the NOTIFY commit together.
 */
export async function setExposure(
  app: Pick<AppContext, "db">,
  scope: { projectId: string; userId: string },
  input: ExposureInput,
): Promise<ExposureWire[]> {
  await checkEntries(app.db, scope.projectId, input.exposures);
  await app.db.transaction(async (tx) => {
    const before = await getExposure(tx, scope.projectId);
    await tx.delete(exposures).where(eq(exposures.projectId, scope.projectId));
    if (input.exposures.length)
      await tx.insert(exposures).values(
        input.exposures.map((entry) => ({
          id: newId(),
          projectId: scope.projectId,
          kind: entry.kind,
          slug: entry.slug,
          environment: entry.environment,
          name: entry.name ?? null,
        })),
      );
    const after = await getExposure(tx, scope.projectId);
    await recordAudit(tx, {
      projectId: scope.projectId,
      action: "exposure.updated",
      targetType: "exposure",
      targetId: scope.projectId,
      before: { exposures: before },
      after: { exposures: after },
    });
    await emitEvent(tx, {
      projectId: scope.projectId,
      type: EXPOSURE_EVENT,
      attributes: { user_id: scope.userId, count: after.length, exposures: after },
    });
    await announceExposureChange(tx, scope.projectId);
  });
  return getExposure(app.db, scope.projectId);
}

async function checkEntries(db: Executor, projectId: string, entries: ExposureEntryInput[]): Promise<void> {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const names = new Map<string, number>();
  const lookups = {
    agent: new Lookup(db, projectId, DOMAIN_SPECS.workflows.keys),
    prompt: new Lookup(db, projectId, DOMAIN_SPECS.applications.keys),
    environment: new Lookup(db, projectId, DOMAIN_SPECS.environments.keys),
  };
  for (const [i, entry] of entries.entries()) {
    const path = `exposures[${i}]`;
    const key = `${entry.kind} ${entry.slug}@${entry.environment}`;
    if (seen.has(key)) errors.push({ path, message: `the same ${key} as exposures[${seen.get(key)}]` });
    seen.set(key, i);
    const name = `${entry.kind} ${exposedName(entry)}`;
    if (names.has(name))
      errors.push({
        path: `${path}.name`,
        message: `"${exposedName(entry)}" is also exposures[${names.get(name)}]'s name`,
      });
    names.set(name, i);
    const what = entry.kind === "agent" ? "agent" : "prompt application";
    if (!(await exists(lookups[entry.kind], entry.slug)))
      errors.push({ path: `${path}.slug`, message: `no ${what} "${entry.slug}" in this project` });
    if (!(await exists(lookups.environment, entry.environment)))
      errors.push({ path: `${path}.environment`, message: `no environment "${entry.environment}" in this project` });
  }
  if (errors.length)
    throw new BadRequestError(
      `exposures: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      "invalid_exposure",
      errors,
    );
}

async function exists(lookup: Lookup, slug: string): Promise<boolean> {
  try {
    await lookup.artifact({ slug });
    return true;
  } catch (error) {
    if (isAppError(error) && error.status === 404) return false;
    throw error;
  }
}
