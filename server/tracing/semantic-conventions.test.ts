import { describe, expect, it } from "vitest";
import { mapSemanticConventions } from "./semantic-conventions";

describe("vendor conventions onto ag", () => {
  it("OpenInference: input and output values, the model, token counts and the span kind", () => {
    const attributes: Record<string, unknown> = {
      openinference: { span: { kind: "LLM" } },
      input: { value: '{"question": "2+2?"}' },
      output: { value: "4" },
      llm: { model_name: "gpt-5-mini", provider: "openai", token_count: { prompt: 10, completion: 2, total: 12 } },
    };
    expect(mapSemanticConventions(attributes)).toBe("llm");
    expect(attributes.ag).toEqual({
      data: { inputs: { question: "2+2?" }, outputs: "4" },
      meta: { request: { model: "gpt-5-mini" }, system: "openai" },
      metrics: { tokens: { incremental: { prompt: 10, completion: 2, total: 12 } } },
    });
    // Moved, not copied: the content is stored once.
    expect(attributes.input).toBeUndefined();
    expect(attributes.output).toBeUndefined();
  });

  it("OpenLLMetry: a decorated workflow's entity input and output, and its kind", () => {
    const attributes: Record<string, unknown> = {
      traceloop: {
        span: { kind: "workflow" },
        entity: {
          name: "answer",
          input: '{"args": [], "kwargs": {"question": "2+2?"}}',
          output: '"4"',
        },
        workflow: { name: "answer" },
      },
    };
    expect(mapSemanticConventions(attributes)).toBe("workflow");
    expect(attributes.ag).toEqual({ data: { inputs: { args: [], kwargs: { question: "2+2?" } }, outputs: '"4"' } });
    expect(attributes.traceloop).toEqual({
      span: { kind: "workflow" },
      entity: { name: "answer" },
      workflow: { name: "answer" },
    });
  });

  it("OpenLLMetry: a model call's kind from llm.request.type, its prompt and usage from gen_ai", () => {
    const attributes: Record<string, unknown> = {
      llm: { request: { type: "chat" }, usage: { total_tokens: 15 } },
      gen_ai: {
        system: "openai",
        request: { model: "gpt-5-mini" },
        prompt: { "0": { role: "user", content: "2+2?" } },
        completion: { "0": { role: "assistant", content: "4" } },
        usage: { prompt_tokens: 12, completion_tokens: 3 },
      },
    };
    expect(mapSemanticConventions(attributes)).toBe("chat");
    expect(attributes.ag).toMatchObject({
      data: {
        inputs: { messages: [{ role: "user", content: "2+2?" }] },
        outputs: { messages: [{ role: "assistant", content: "4" }] },
      },
      meta: { system: "openai", request: { model: "gpt-5-mini" } },
      metrics: { tokens: { incremental: { prompt: 12, completion: 3, total: 15 } } },
    });
  });

  it("a span type the conventions do not know is left for the caller", () => {
    expect(mapSemanticConventions({ traceloop: { span: { kind: "mystery" } } })).toBeUndefined();
  });
});
