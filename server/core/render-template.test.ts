import { describe, expect, it } from "vitest";
import { lookupPath, renderTemplate, type TemplateFormat, type TemplateProblem } from "./render-template";

const context = {
  name: "Ada",
  count: 3,
  ok: true,
  outputs: { answer: "Paris", list: [1, 2] },
  "a.b": "flat key",
  "first-name": "Lin",
  _private: "p",
  "2nd": "second",
};

class Problem extends Error {
  constructor(readonly problem: TemplateProblem) {
    super(JSON.stringify(problem));
  }
}
const render = (text: string, format: TemplateFormat) =>
  renderTemplate(text, format, context, (problem) => new Problem(problem));
const problemOf = (text: string, format: TemplateFormat) => {
  try {
    render(text, format);
  } catch (error) {
    return (error as Problem).problem;
  }
  throw new Error(`${text} rendered`);
};

// [template, rendered]
const curly: [string, string][] = [
  ["Hi {{name}}.", "Hi Ada."],
  ["Hi {{ name }} and {{name}}", "Hi Ada and Ada"],
  ["{{count}} / {{ok}}", "3 / true"],
  ["{{outputs}}", '{"answer":"Paris","list":[1,2]}'],
  ["{{outputs.answer}} {{outputs.list}}", "Paris [1,2]"],
  ["{{a.b}}", "flat key"],
  ["{{first-name}} {{_private}} {{2nd}}", "Lin p second"],
  ["{{{name}}}", "Ada"],
  ["<{{name}}> & 'quotes'", "<Ada> & 'quotes'"],
  ['{name} {"json": 1} { name }', '{name} {"json": 1} { name }'],
  ["{{ }} {{}} {{ not a name }}", "{{ }} {{}} {{ not a name }}"],
  ["no placeholders", "no placeholders"],
];

const fstring: [string, string][] = [
  ["Hi {name}.", "Hi Ada."],
  ["{count} / {ok}", "3 / true"],
  ["{outputs.answer} {outputs}", 'Paris {"answer":"Paris","list":[1,2]}'],
  ["{a.b}", "flat key"],
  ["{{name}} is literal", "{name} is literal"],
  ['reply {"score": 1}', 'reply {"score": 1}'],
  ["{ name } {2nd} {first-name}", "{ name } {2nd} {first-name}"],
  ["}} and {{", "} and {"],
];

describe("renderTemplate", () => {
  it.each(curly)("curly: %j -> %j", (template, rendered) => expect(render(template, "curly")).toBe(rendered));
  it.each(curly)("mustache renders as curly: %j -> %j", (template, rendered) =>
    expect(render(template, "mustache")).toBe(rendered),
  );
  it.each(fstring)("fstring: %j -> %j", (template, rendered) => expect(render(template, "fstring")).toBe(rendered));

  it.each([
    ["{{nope}}", "curly", { kind: "missing", placeholder: "{{nope}}", path: "nope" }],
    [
      "{{ outputs.missing }}",
      "mustache",
      { kind: "missing", placeholder: "{{ outputs.missing }}", path: "outputs.missing" },
    ],
    ["{{name.first}}", "curly", { kind: "missing", placeholder: "{{name.first}}", path: "name.first" }],
    ["{nope}", "fstring", { kind: "missing", placeholder: "{nope}", path: "nope" }],
    ["{{#outputs}}x{{/outputs}}", "mustache", { kind: "unsupported_tag", tag: "{{#outputs}}" }],
    ["{{> partial}}", "curly", { kind: "unsupported_tag", tag: "{{> partial}}" }],
    ["{{! a comment }}", "curly", { kind: "unsupported_tag", tag: "{{! a comment }}" }],
    ["{{^empty}}none{{/empty}}", "mustache", { kind: "unsupported_tag", tag: "{{^empty}}" }],
    ["{{&name}}", "mustache", { kind: "unsupported_tag", tag: "{{&name}}" }],
    // Inherited names are not the context's: only own keys are found.
    ["{{ constructor }}", "curly", { kind: "missing", placeholder: "{{ constructor }}", path: "constructor" }],
    ["{{name.length}}", "curly", { kind: "missing", placeholder: "{{name.length}}", path: "name.length" }],
    ["{outputs.toString}", "fstring", { kind: "missing", placeholder: "{outputs.toString}", path: "outputs.toString" }],
  ] as const)("%j (%s) is the caller's problem", (template, format, problem) =>
    expect(problemOf(template, format)).toEqual(problem),
  );

  it("leaves mustache tags to fstring as text", () => {
    expect(render("{{#outputs}}", "fstring")).toBe("{#outputs}");
  });

  it("lookupPath finds own keys and array indexes, never inherited names", () => {
    expect(lookupPath(context, "outputs.list.1")).toEqual({ found: true, value: 2 });
    expect(lookupPath(context, "a.b")).toEqual({ found: true, value: "flat key" });
    expect(lookupPath({ n: null }, "n")).toEqual({ found: true, value: null });
    for (const path of ["toString", "constructor", "outputs.hasOwnProperty", "__proto__"])
      expect(lookupPath(context, path), path).toEqual({ found: false });
  });
});
