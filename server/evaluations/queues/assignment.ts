/** The reference implementation's modulo space when a queue sets no batch size. */
const SPACE = 120;

function uuidMod(id: string, mod: number): number {
  return Number(BigInt(`0x${id.replaceAll("-", "")}`) % BigInt(mod));
}

/**
 * A user's share of a run's scenarios, per repeat lane (reference §8.2): each lane of
 * `user_ids` splits a modulo space into contiguous blocks, one per user. Sequential queues place
 * scenario `i` at `(offset + i) mod min(#scenarios, batch_size or 120)`; others hash the
 * scenario id `mod 120`. The lanes' shares are joined, without repeats, in order.
 */
export function assignedScenarios(
  scenarioIds: string[],
  lanes: string[][],
  userId: string,
  options: { sequential: boolean; batchSize?: number | null; batchOffset?: number | null },
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const space = options.sequential ? Math.max(1, Math.min(scenarioIds.length, options.batchSize ?? SPACE)) : SPACE;
  for (const lane of lanes) {
    const index = lane.indexOf(userId);
    if (index < 0) continue;
    const block = space / lane.length;
    const [low, high] = [Math.floor(index * block), Math.floor((index + 1) * block)];
    scenarioIds.forEach((id, i) => {
      const slot = options.sequential ? ((options.batchOffset ?? 0) + i) % space : uuidMod(id, SPACE);
      if (slot >= low && slot < high && !seen.has(id)) {
        seen.add(id);
        out.push(id);
      }
    });
  }
  return out;
}
