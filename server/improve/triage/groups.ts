import type { NewMode } from "./store";
import type { TriageItem } from "./wire";

/** A failure mode while it is being built: item indexes into the triage's `items`. */
export interface Group {
  name: string;
  description: string;
  items: number[];
}

export const HEURISTIC_NOTE = "No model configured: grouped by evaluator, error class, tool and stop reason";
const SIGNATURE_KEYS = ["evaluator", "error_class", "tool", "stop_reason"] as const;

/** Groups by what each failure carries (evaluator, error class, tool, stop reason). Pure. */
export function heuristicGroups(items: TriageItem[]): Group[] {
  const groups = new Map<string, Group>();
  items.forEach((item, index) => {
    const parts = SIGNATURE_KEYS.flatMap((key) => (item[key] ? [[key, item[key]] as const] : []));
    const key = JSON.stringify(parts);
    let group = groups.get(key);
    if (!group) {
      group = { ...heuristicName(Object.fromEntries(parts)), items: [] };
      groups.set(key, group);
    }
    group.items.push(index);
  });
  return [...groups.values()];
}

function heuristicName(s: Partial<Record<(typeof SIGNATURE_KEYS)[number], string>>): {
  name: string;
  description: string;
} {
  const names: string[] = [];
  const says: string[] = [];
  if (s.evaluator) {
    names.push(`Fails ${s.evaluator}`);
    says.push(`the evaluator ${s.evaluator} failed or scored it low`);
  }
  if (s.error_class) {
    names.push(`${s.error_class} errors`);
    says.push(`it ended in an error of class ${s.error_class}`);
  }
  if (s.tool) {
    names.push(`Tool ${s.tool} fails`);
    says.push(`the tool ${s.tool} failed`);
  }
  if (s.stop_reason) {
    names.push(`Stops on ${s.stop_reason}`);
    says.push(`the turn stopped with ${s.stop_reason}`);
  }
  if (names.length === 0)
    return {
      name: "Unclassified failures",
      description: "Failures without an evaluator, error class, failing tool or unusual stop reason to tell them apart",
    };
  return { name: names.join(", "), description: `Failures where ${says.join(", and ")}` };
}

/**
 * Merges a batch's groups into those found so far: a group named like a known one (case and
 * spacing aside) adds to it; an item is counted once (the first group that claims it).
 */
export function mergeGroups(known: Group[], batch: Group[], claimed: Set<number>): Group[] {
  const merged = known.map((g) => ({ ...g, items: [...g.items] }));
  const byName = new Map(merged.map((g) => [normalName(g.name), g]));
  for (const group of batch) {
    const fresh = group.items.filter((i) => !claimed.has(i));
    if (fresh.length === 0) continue;
    fresh.forEach((i) => claimed.add(i));
    const same = byName.get(normalName(group.name));
    if (same) same.items.push(...fresh);
    else {
      const added = { name: group.name.trim(), description: group.description.trim(), items: fresh };
      merged.push(added);
      byName.set(normalName(added.name), added);
    }
  }
  return merged;
}

const normalName = (name: string) => name.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The failure modes as stored: largest first, each with its first examples and the signature
 * its failures all share (a key is kept only when every failure of the mode has the same value).
 */
export function modesOfGroups(groups: Group[], items: TriageItem[], maxExamples: number): NewMode[] {
  return groups
    .filter((g) => g.items.length > 0)
    .sort((a, b) => b.items.length - a.items.length)
    .map((group) => {
      const members = group.items.map((i) => items[i]).filter((item): item is TriageItem => item !== undefined);
      const signature: Record<string, string> = {};
      for (const key of SIGNATURE_KEYS) {
        const values = new Set(members.map((m) => m[key]));
        const [only] = values;
        if (values.size === 1 && only) signature[key] = only;
      }
      return {
        name: group.name,
        description: group.description,
        count: members.length,
        examples: members.slice(0, maxExamples).map(exampleOf),
        signature,
      };
    });
}

function exampleOf(item: TriageItem): Record<string, unknown> {
  return {
    ...(item.trace_id ? { trace_id: item.trace_id } : {}),
    ...(item.span_id ? { span_id: item.span_id } : {}),
    ...(item.testcase_id ? { testcase_id: item.testcase_id } : {}),
    input: item.input ?? null,
    output: item.output ?? null,
    ...(item.feedback ? { feedback: item.feedback } : {}),
    ...(item.expected !== undefined ? { expected: item.expected } : {}),
  };
}
