import { isObject, setPath, type JsonObject } from "./attributes";
import { ownMetrics, type Amounts } from "./metrics";

/**
 * A trace's totals: each span's `cumulative` tokens, costs and errors, its own plus its
 * descendants'. (Not the analytics roll-ups, which sum spans per time bucket: store/rollup-*.ts.)
 */

/** The part of a stored span the totals read and write. */
export interface TotalsNode {
  span_id: string;
  parent_id: string | null;
  attributes: JsonObject;
}

/**
 * Sets `ag.metrics.{tokens,costs,errors}.cumulative` of every span of one trace to its own
 * incremental figures plus its descendants' (a parent missing from the trace simply ends the
 * chain). Returns the span ids whose cumulative figures changed. Cycles (a corrupt parent chain)
 * are cut where they close.
 */
export function totalTrace(nodes: TotalsNode[]): Set<string> {
  const byId = new Map(nodes.map((n) => [n.span_id, n]));
  const children = new Map<string, TotalsNode[]>();
  for (const n of nodes) {
    if (n.parent_id && n.parent_id !== n.span_id && byId.has(n.parent_id)) {
      const list = children.get(n.parent_id) ?? [];
      list.push(n);
      children.set(n.parent_id, list);
    }
  }
  const totals = new Map<string, Totals>();
  const visiting = new Set<string>();
  const changed = new Set<string>();

  const visit = (node: TotalsNode): Totals => {
    const done = totals.get(node.span_id);
    if (done) return done;
    if (visiting.has(node.span_id)) return {};
    visiting.add(node.span_id);
    const own = ownMetrics(node.attributes);
    const total: Totals = {
      tokens: own.tokens && { ...own.tokens },
      costs: own.costs && { ...own.costs },
      errors: own.errors,
    };
    for (const child of children.get(node.span_id) ?? []) add(total, visit(child));
    visiting.delete(node.span_id);
    totals.set(node.span_id, total);
    if (writeCumulative(node.attributes, total)) changed.add(node.span_id);
    return total;
  };
  for (const n of nodes) visit(n);
  return changed;
}

interface Totals {
  tokens?: Amounts;
  costs?: Amounts;
  errors?: number;
}

function add(into: Totals, from: Totals): void {
  if (from.tokens) into.tokens = addAmounts(into.tokens, from.tokens);
  if (from.costs) into.costs = addAmounts(into.costs, from.costs);
  if (from.errors !== undefined) into.errors = (into.errors ?? 0) + from.errors;
}

function addAmounts(a: Amounts | undefined, b: Amounts): Amounts {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}

function writeCumulative(attributes: JsonObject, total: Totals): boolean {
  let changed = false;
  const put = (name: string, value: unknown) => {
    const metrics = isObject(attributes.ag) && isObject(attributes.ag.metrics) ? attributes.ag.metrics : undefined;
    const current = metrics && isObject(metrics[name]) ? (metrics[name] as JsonObject).cumulative : undefined;
    // Nothing to total: whatever the span reported itself is left as it came.
    if (value === undefined) return;
    if (JSON.stringify(current) === JSON.stringify(value)) return;
    setPath(attributes, ["ag", "metrics", name, "cumulative"], value);
    changed = true;
  };
  put("tokens", total.tokens && roundAmounts(total.tokens));
  put("costs", total.costs && roundAmounts(total.costs));
  put("errors", total.errors);
  return changed;
}

/** Sums of floating costs drift in the last digits; 12 significant decimals are plenty for USD. */
function roundAmounts(a: Amounts): Amounts {
  const out: Amounts = {};
  for (const [k, v] of Object.entries(a)) out[k] = Math.round(v * 1e12) / 1e12;
  return out;
}
