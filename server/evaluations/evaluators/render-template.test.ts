import { describe, expect, it } from "vitest";
import { renderTemplate } from "./render-template";

const context = { question: "Capital?", outputs: { answer: "Paris" }, inputs: { country: "France" } };

describe("renderTemplate", () => {
  it("fills curly and mustache placeholders, objects as JSON, dotted paths", () => {
    expect(renderTemplate("Q: {{question}} A: {{ outputs }} C: {{inputs.country}}", "curly", context, "m")).toBe(
      'Q: Capital? A: {"answer":"Paris"} C: France',
    );
    expect(renderTemplate("{{{outputs.answer}}} / {{outputs.answer}}", "mustache", context, "m")).toBe("Paris / Paris");
  });

  it("fills fstring placeholders and keeps other braces", () => {
    expect(renderTemplate('{question} -> reply {"score": 1} {{literal}}', "fstring", context, "m")).toBe(
      'Capital? -> reply {"score": 1} {literal}',
    );
  });

  it("refuses mustache sections instead of sending them as text", () => {
    expect(() => renderTemplate("{{#inputs}}x{{/inputs}}", "mustache", context, "m")).toThrow(
      "m uses a mustache section",
    );
  });

  it("names a missing placeholder and what is available", () => {
    expect(() => renderTemplate("{{nope}}", "curly", context, "prompt_template[1].content")).toThrow(
      "prompt_template[1].content uses the placeholder {{nope}}, which the render context does not have; available: question, outputs, inputs",
    );
  });
});
