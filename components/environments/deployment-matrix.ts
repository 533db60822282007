import { entryName, type Named } from "./paths";

/** What the matrix reads of a deployment: what is deployed (its key) and its name. */
interface Placed extends Named {
  key: string;
}

export interface MatrixRow<D> {
  key: string;
  /** The deployment of the first environment that runs it, for its name and links. */
  entry: D;
  /** By environment slug: what that environment runs of it (absent: nothing). */
  cells: Map<string, D>;
}

/**
 * "What runs where": one row per deployed agent (application, evaluator) across the environments,
 * in the environments' order, rows by name.
 */
export function deploymentMatrix<D extends Placed>(
  environments: readonly { slug: string; deployments: readonly D[] }[],
): MatrixRow<D>[] {
  const byKey = new Map<string, MatrixRow<D>>();
  for (const env of environments) {
    for (const d of env.deployments) {
      const row = byKey.get(d.key) ?? { key: d.key, entry: d, cells: new Map() };
      row.cells.set(env.slug, d);
      byKey.set(d.key, row);
    }
  }
  return [...byKey.values()].sort((a, b) => entryName(a.entry).localeCompare(entryName(b.entry)));
}
