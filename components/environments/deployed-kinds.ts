/**
 * What an environment runs, in the words of the playground: workflows are agents here, the other
 * deployable kinds keep their names.
 */
const KIND_WORDS: Record<string, [one: string, many: string]> = {
  workflow: ["agent", "agents"],
  application: ["application", "applications"],
  evaluator: ["evaluator", "evaluators"],
};

export function kindWord(kind: string, count: number): string {
  const [one, many] = KIND_WORDS[kind] ?? [kind, `${kind}s`];
  return count === 1 ? one : many;
}

/** "2 agents, 1 application": every kind counted in its own word, agents first; "Nothing deployed" when empty. */
export function deployedSummary(deployments: readonly { kind: string }[]): string {
  if (deployments.length === 0) return "Nothing deployed";
  const counts = new Map<string, number>();
  for (const d of deployments) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
  const order = Object.keys(KIND_WORDS);
  const rank = (kind: string) => (order.includes(kind) ? order.indexOf(kind) : order.length);
  return [...counts]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, n]) => `${n} ${kindWord(kind, n)}`)
    .join(", ");
}

/** The column heading over a mix of kinds: "Agent" only when every row is one. */
export function deployedColumnTitle(deployments: readonly { kind: string }[]): string {
  const kinds = new Set(deployments.map((d) => d.kind));
  if (kinds.size === 1) {
    const [only] = kinds;
    const word = kindWord(only, 1);
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return "Deployed";
}

/**
 * The words after an environment card's big count: "agents deployed" (an empty environment too,
 * so its card reads like its neighbours'), or "deployed: 2 agents, 1 application" for a mix.
 */
export function deployedCountLabel(deployments: readonly { kind: string }[]): string {
  const kinds = new Set(deployments.map((d) => d.kind));
  if (kinds.size === 0) return `${kindWord("workflow", 0)} deployed`;
  if (kinds.size === 1) return `${kindWord([...kinds][0], deployments.length)} deployed`;
  return `deployed: ${deployedSummary(deployments)}`;
}
