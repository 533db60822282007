import { expect, it } from "vitest";
import { isAppError } from "@/server/core/errors";
import { fillTemplate, matchesFilter, payloadFields } from "./payload-template";

const payload = { action: "opened", issue: { number: 7, labels: ["bug"], title: "Crash" }, n: null };

const refusal = (text: string, from: Record<string, unknown> = payload) => {
  try {
    return fillTemplate(text, from);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return `${error.code}: ${error.message}`;
  }
};

it("fills {{ path }} as the core renderer does: strings as they are, other values as JSON", () => {
  expect(fillTemplate("#{{ issue.number }} {{issue.title}} {{ issue.labels }} [{{ n }}]", payload)).toBe(
    '#7 Crash ["bug"] [null]',
  );
  expect(fillTemplate("{{ issue.labels.0 }}", payload)).toBe("bug");
  expect(fillTemplate("no placeholders, {not one}", payload)).toBe("no placeholders, {not one}");
});

it("a path the payload does not have fails the firing, naming it", () => {
  expect(refusal("[{{ nope.x }}]")).toBe(
    "missing_variable: the payload has no nope.x ({{ nope.x }}); it holds action, issue, n",
  );
});

it("{{ constructor }} and other inherited names are not the payload's: refused, as the core renderer refuses them", () => {
  expect(refusal("{{ constructor }}")).toMatch(/^missing_variable: the payload has no constructor /);
  expect(refusal("{{ issue.toString }}")).toMatch(/^missing_variable: the payload has no issue.toString /);
  expect(refusal("{{ __proto__ }}")).toMatch(/^missing_variable: /);
});

it("a mustache section or comment is refused, not sent as text", () => {
  expect(refusal("{{#issue}}x{{/issue}}")).toMatch(/^unsupported_prompt: \{\{#issue\}\}/);
});

it("a filter passes when every condition holds", () => {
  expect(matchesFilter(payload, undefined)).toBe(true);
  expect(matchesFilter(payload, [{ path: "action", equals: "opened" }])).toBe(true);
  expect(matchesFilter(payload, [{ path: "action", in: ["closed", "reopened"] }])).toBe(false);
  expect(
    matchesFilter(payload, [
      { path: "issue.title", exists: true },
      { path: "issue.body", exists: false },
      { path: "n", exists: true },
    ]),
  ).toBe(true);
  expect(matchesFilter(payload, [{ path: "issue", equals: { number: 7 } }])).toBe(false);
  expect(matchesFilter(payload, [{ path: "issue.labels.0", in: ["bug", "crash"] }])).toBe(true);
});

it("a filter on toString or constructor matches no payload: it reads paths as placeholders do", () => {
  for (const path of ["toString", "constructor", "issue.toString", "issue.hasOwnProperty"]) {
    expect(matchesFilter(payload, [{ path, exists: true }]), path).toBe(false);
    expect(matchesFilter(payload, [{ path, exists: false }]), path).toBe(true);
  }
  expect(matchesFilter({ toString: "own" }, [{ path: "toString", equals: "own" }])).toBe(true);
});

it("a JSON body that is not an object has no paths", () => {
  expect(payloadFields([1, 2])).toEqual([1, 2]);
  expect(payloadFields("text")).toEqual({});
  expect(matchesFilter(payloadFields(null), [{ path: "action", exists: true }])).toBe(false);
});
