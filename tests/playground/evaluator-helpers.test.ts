import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sampleInputs } from "@/components/evaluators/sample-inputs";
import { InlineCode } from "@/components/ui/inline-code";

describe("the Try it sample", () => {
  it("names the answer column the evaluator reads", () => {
    expect(JSON.parse(sampleInputs({ correct_answer_key: "expected" }))).toEqual({
      question: "What is 2 + 2?",
      expected: "4",
    });
    expect(JSON.parse(sampleInputs({}))).toHaveProperty("correct_answer", "4");
    expect(JSON.parse(sampleInputs({ correct_answer_key: "  " }))).toHaveProperty("correct_answer", "4");
  });
});

describe("a catalog description", () => {
  it("draws backticked names as code and keeps the rest as text", () => {
    const html = renderToStaticMarkup(
      createElement(InlineCode, { text: "The output starts with `{` and ends with `}`." }),
    );
    expect(html).not.toContain("`");
    expect(html.match(/<code[^>]*>\{<\/code>/)).not.toBeNull();
    expect(html.match(/<code[^>]*>\}<\/code>/)).not.toBeNull();
    expect(html).toContain(" and ends with ");
    expect(renderToStaticMarkup(createElement(InlineCode, { text: "a lone ` stays" }))).toBe("a lone ` stays");
  });
});
