import { describe, expect, it } from "vitest";
import { redact } from "./record-spans";

describe("redact", () => {
  const secrets = ["sk-secret-1", "tok-2222"];

  it("replaces every secret in keys and values, at any depth, without touching its input", () => {
    const input = {
      a: "key sk-secret-1 and tok-2222",
      list: [1, "plain", { "sk-secret-1": ["tok-2222"] }],
      keep: { x: "nothing here" },
    };
    const before = structuredClone(input);
    expect(redact(input, secrets)).toEqual({
      a: "key [REDACTED] and [REDACTED]",
      list: [1, "plain", { "[REDACTED]": ["[REDACTED]"] }],
      keep: { x: "nothing here" },
    });
    expect(input).toEqual(before);
  });

  it("copies only what held a secret", () => {
    const clean = { span: { attributes: { text: "hello" } }, list: ["a", "b"] };
    expect(redact(clean, secrets)).toBe(clean);
    const mixed = { dirty: "sk-secret-1", clean: { text: "hello" } };
    const out = redact(mixed, secrets) as typeof mixed;
    expect(out).not.toBe(mixed);
    expect(out.clean).toBe(mixed.clean);
  });
});
