import { SchemaValidationError } from "@/server/core/errors";
import type { DomainSpec } from "./domain-spec";
import type { RevisionRecord } from "./records";

/**
 * Refuses top-level keys of a commit's `data` that the domain does not know (422, one error per
 * key, `data.<key>`), as the compat API's typed revision data does. A key the variant's newest
 * revision already holds passes: stored rows made before this check keep their keys when an
 * edit carries them forward (the agent editor, a simple edit without data), and still read.
 * The newest revision is read only when an unknown key is present, so a valid commit costs nothing.
 */
export async function assertKnownDataKeys(
  spec: DomainSpec,
  data: Record<string, unknown> | undefined,
  previous: () => Promise<RevisionRecord | undefined>,
): Promise<void> {
  const known = spec.dataKeys;
  if (!known || !data) return;
  const unknown = Object.keys(data).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const stored = (await previous())?.data ?? {};
  const refused = unknown.filter((key) => !Object.hasOwn(stored, key));
  if (refused.length === 0) return;
  const takes = `a ${spec.keys.one} revision's data takes ${known.join(", ")}`;
  throw new SchemaValidationError(refused.map((key) => ({ path: `data.${key}`, message: `Unknown key; ${takes}` })));
}
