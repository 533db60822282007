import { describe, expect, it } from "vitest";
import { emptyConnectionForm, formOf, secretInputOf } from "@/components/connections/connection-form";
import { secretInputSchema } from "@/server/vault";

describe("connection form", () => {
  it("a provider key becomes the vault's input; blank fields are omitted, not empty strings", () => {
    const input = secretInputOf({ ...emptyConnectionForm("anthropic"), name: " Work ", key: "sk-ant-1" });
    expect(input).toEqual({
      header: { name: "Work" },
      secret: { kind: "provider_key", data: { kind: "anthropic", provider: { key: "sk-ant-1", url: null } } },
    });
    expect(secretInputSchema.safeParse(input).success).toBe(true);
  });

  it("a custom provider's models are split on commas and lines", () => {
    const input = secretInputOf({
      kind: "custom_provider",
      name: "Local",
      provider: "openai",
      key: "",
      url: "http://localhost:11434/v1",
      models: "llama3.1, qwen2.5\n\nphi4",
    });
    expect(input.secret).toEqual({
      kind: "custom_provider",
      data: {
        kind: "custom",
        provider: { url: "http://localhost:11434/v1", key: null },
        models: [{ slug: "llama3.1" }, { slug: "qwen2.5" }, { slug: "phi4" }],
      },
    });
    expect(secretInputSchema.safeParse(input).success).toBe(true);
  });

  it("editing starts from the stored connection with the key blank (kept unless retyped)", () => {
    const form = formOf({
      header: { name: "Local" },
      secret: {
        kind: "custom_provider",
        data: { kind: "custom", provider: { url: "http://h/v1" }, models: [{ slug: "a" }, { slug: "b" }] },
      },
    });
    expect(form).toEqual({
      kind: "custom_provider",
      name: "Local",
      provider: "custom",
      key: "",
      url: "http://h/v1",
      models: "a\nb",
    });
    expect(secretInputOf(form).secret.data.provider).toMatchObject({ key: null });
  });
});
