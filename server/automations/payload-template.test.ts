import { expect, it } from "vitest";
import { fillTemplate, matchesFilter } from "./payload-template";

const payload = { action: "opened", issue: { number: 7, labels: ["bug"], title: "Crash" }, n: null };

it("fills {{ path }} with strings as they are, other values as JSON, missing ones as nothing", () => {
  expect(fillTemplate("#{{ issue.number }} {{issue.title}} {{ issue.labels }} [{{ nope.x }}] [{{ n }}]", payload)).toBe(
    '#7 Crash ["bug"] [] []',
  );
  expect(fillTemplate("{{ $ }}", { a: 1 })).toBe('{"a":1}');
  expect(fillTemplate("{{ issue.labels.0 }}", payload)).toBe("bug");
});

it("a filter passes when every condition holds", () => {
  expect(matchesFilter(payload, undefined)).toBe(true);
  expect(matchesFilter(payload, [{ path: "action", equals: "opened" }])).toBe(true);
  expect(matchesFilter(payload, [{ path: "action", in: ["closed", "reopened"] }])).toBe(false);
  expect(
    matchesFilter(payload, [
      { path: "issue.title", exists: true },
      { path: "issue.body", exists: false },
    ]),
  ).toBe(true);
  expect(matchesFilter(payload, [{ path: "issue", equals: { number: 7 } }])).toBe(false);
});
