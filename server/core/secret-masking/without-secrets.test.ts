import { describe, expect, it } from "vitest";
import { withoutSecrets } from "./without-secrets";

describe("withoutSecrets", () => {
  it("drops secret-named fields at any depth and keeps the rest", () => {
    expect(
      withoutSecrets({
        name: "hook",
        secret: "whsec_1",
        webhookSecret: "x",
        api_key_id: "k1",
        key: "sk_123",
        prefix: "sk_abc",
        max_tokens: 10,
        at: new Date("2026-01-01T00:00:00Z"),
        nested: [{ password: "p", headers: { a: "b" }, url: "https://x" }],
      }),
    ).toEqual({
      name: "hook",
      api_key_id: "k1",
      prefix: "sk_abc",
      max_tokens: 10,
      at: "2026-01-01T00:00:00.000Z",
      nested: [{ url: "https://x" }],
    });
  });
});
