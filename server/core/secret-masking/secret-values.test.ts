import { describe, expect, it } from "vitest";
import { MASKED_SECRET, maskSecretValues, maskSecretValuesDeep, REDACTED_SECRET } from "./secret-values";

describe("maskSecretValuesDeep", () => {
  const secrets = ["sk-secret-1", "tok-2222"];

  it("replaces every secret in keys and values, at any depth, without touching its input", () => {
    const input = {
      a: "key sk-secret-1 and tok-2222",
      list: [1, "plain", { "sk-secret-1": ["tok-2222"] }],
      keep: { x: "nothing here" },
    };
    const before = structuredClone(input);
    expect(maskSecretValuesDeep(input, secrets, REDACTED_SECRET)).toEqual({
      a: "key [REDACTED] and [REDACTED]",
      list: [1, "plain", { "[REDACTED]": ["[REDACTED]"] }],
      keep: { x: "nothing here" },
    });
    expect(input).toEqual(before);
  });

  it("copies only what held a secret", () => {
    const clean = { span: { attributes: { text: "hello" } }, list: ["a", "b"] };
    expect(maskSecretValuesDeep(clean, secrets, REDACTED_SECRET)).toBe(clean);
    const mixed = { dirty: "sk-secret-1", clean: { text: "hello" } };
    const out = maskSecretValuesDeep(mixed, secrets, REDACTED_SECRET) as typeof mixed;
    expect(out).not.toBe(mixed);
    expect(out.clean).toBe(mixed.clean);
  });
});

describe("maskSecretValues", () => {
  it("ignores empty values", () => {
    expect(maskSecretValues("abc", ["", "b"], MASKED_SECRET)).toBe("a[secret]c");
  });

  it("replaces every occurrence of each", () => {
    expect(maskSecretValues("k1 k2 k1", ["k1", "k2"], MASKED_SECRET)).toBe("[secret] [secret] [secret]");
  });
});
