import { canonicalJson } from "./canonical-json";
import { isRecord } from "./evaluator-values";

/** One tool call: its name and, when known, its arguments. */
export interface ToolCallStep {
  name: string;
  input?: unknown;
}

export type TrajectoryMode = "exact" | "in_order" | "any_order";

/**
 * Whether an actual call satisfies an expected one: same name and, when arguments are compared
 * and the expectation gives some, every expected argument field equal to the actual's (fields
 * the expectation leaves out are free, so ids and timestamps need not be predicted).
 */
export function callMatches(expected: ToolCallStep, actual: ToolCallStep, compareArguments: boolean): boolean {
  if (expected.name !== actual.name) return false;
  if (!compareArguments || expected.input === undefined) return true;
  if (isRecord(expected.input) && isRecord(actual.input)) {
    const got = actual.input;
    return Object.entries(expected.input).every(
      ([key, value]) => Object.hasOwn(got, key) && canonicalJson(value) === canonicalJson(got[key]),
    );
  }
  return canonicalJson(expected.input) === canonicalJson(actual.input);
}

type Line = { kind: "=" | "-" | "+"; step: ToolCallStep };

/** The longest common subsequence of the two lists as an edit script (= kept, - missing, + extra). */
function alignInOrder(
  expected: ToolCallStep[],
  actual: ToolCallStep[],
  same: (e: ToolCallStep, a: ToolCallStep) => boolean,
): Line[] {
  const n = expected.length;
  const m = actual.length;
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--)
      table[i][j] = same(expected[i], actual[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  }
  const lines: Line[] = [];
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && same(expected[i], actual[j]) && table[i][j] === table[i + 1][j + 1] + 1) {
      lines.push({ kind: "=", step: actual[j] });
      i++;
      j++;
    } else if (j < m && (i === n || table[i][j + 1] >= table[i + 1][j])) lines.push({ kind: "+", step: actual[j++] });
    else lines.push({ kind: "-", step: expected[i++] });
  }
  return lines;
}

/** Pairs each expected call with an unused actual call, whatever the order. */
function alignAnyOrder(
  expected: ToolCallStep[],
  actual: ToolCallStep[],
  same: (e: ToolCallStep, a: ToolCallStep) => boolean,
): Line[] {
  const used = new Set<number>();
  const lines: Line[] = [];
  for (const step of expected) {
    const j = actual.findIndex((a, index) => !used.has(index) && same(step, a));
    if (j >= 0) {
      used.add(j);
      lines.push({ kind: "=", step: actual[j] });
    } else lines.push({ kind: "-", step });
  }
  actual.forEach((step, j) => {
    if (!used.has(j)) lines.push({ kind: "+", step });
  });
  return lines;
}

const LABEL = { "=": "  ", "-": "- ", "+": "+ " } as const;
const NOTE = { "=": "", "-": "   (expected, not called)", "+": "   (called, not expected)" } as const;

function describe(step: ToolCallStep): string {
  return step.input === undefined ? step.name : `${step.name} ${canonicalJson(step.input)}`;
}

/**
 * Scores actual tool calls against expected ones. exact: the same calls in the same order, score =
 * matched / the longer list; in_order: the expected calls appear in that order, others may come
 * between, score = matched / expected; any_order: each expected call was made, in any order.
 * The diff lists every call: kept, `- ` expected but missing, `+ ` made but not expected.
 */
export function scoreTrajectory(
  expected: ToolCallStep[],
  actual: ToolCallStep[],
  mode: TrajectoryMode,
  compareArguments: boolean,
) {
  const same = (e: ToolCallStep, a: ToolCallStep) => callMatches(e, a, compareArguments);
  const lines = mode === "any_order" ? alignAnyOrder(expected, actual, same) : alignInOrder(expected, actual, same);
  const matched = lines.filter((l) => l.kind === "=").length;
  const denominator = mode === "exact" ? Math.max(expected.length, actual.length) : expected.length;
  const score = denominator === 0 ? 1 : matched / denominator;
  const diff =
    lines.length === 0
      ? "(no tool calls expected and none made)"
      : lines.map((l) => `${LABEL[l.kind]}${describe(l.step)}${NOTE[l.kind]}`).join("\n");
  return { score, diff };
}
