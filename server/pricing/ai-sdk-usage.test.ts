import { describe, expect, it } from "vitest";
import { usageFromAiSdk } from "./ai-sdk-usage";

describe("usageFromAiSdk", () => {
  it("reads v6's token details", () => {
    expect(
      usageFromAiSdk({
        inputTokens: 2000,
        outputTokens: 900,
        inputTokenDetails: { cacheReadTokens: 1024, cacheWriteTokens: 0 },
        outputTokenDetails: { reasoningTokens: 600 },
      }),
    ).toEqual({ prompt: 2000, completion: 900, cache_read: 1024, reasoning: 600 });
  });

  it("splits Anthropic's cache writes into 5-minute and 1-hour writes from its raw usage", () => {
    const raw = {
      input_tokens: 100,
      cache_creation_input_tokens: 3000,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
    };
    expect(
      usageFromAiSdk({ inputTokens: 3100, outputTokens: 50, inputTokenDetails: { cacheWriteTokens: 3000 }, raw }),
    ).toEqual({
      prompt: 3100,
      completion: 50,
      cache_write: 1000,
      cache_write_1h: 2000,
    });
    // The same split through the provider metadata, for usage without its raw object.
    expect(
      usageFromAiSdk(
        { inputTokens: 3100, outputTokens: 50 },
        { anthropic: { cacheCreationInputTokens: 3000, usage: raw } },
      ),
    ).toMatchObject({ cache_write: 1000, cache_write_1h: 2000 });
  });

  it("reads the deprecated v5 fields", () => {
    expect(usageFromAiSdk({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 })).toEqual({
      prompt: 10,
      completion: 5,
      cache_read: 4,
      reasoning: 2,
    });
  });
});
