import { describe, expect, it } from "vitest";
import { CATALOG_TYPE_KEYS, catalogTypeUrl, getCatalogType, listCatalogTypes } from "./catalog-types";

describe("catalog types", () => {
  it("has agent-template, messages, prompt-template and model", () => {
    expect(CATALOG_TYPE_KEYS).toEqual(["agent-template", "messages", "prompt-template", "model"]);
    expect(listCatalogTypes().map((t) => t.key)).toEqual(["agent-template", "messages", "prompt-template", "model"]);
  });

  it("returns the JSON Schema of a known key", () => {
    expect(getCatalogType("agent-template")?.json_schema.title).toBe("Agent template");
    expect(getCatalogType("messages")?.json_schema.type).toBe("array");
    expect(getCatalogType("prompt-template")?.json_schema.title).toBe("Prompt template");
    expect(getCatalogType("model")?.json_schema.type).toBe("string");
  });

  it("returns undefined for an unknown key", () => {
    expect(getCatalogType("agent_config")).toBeUndefined();
    expect(getCatalogType("hasOwnProperty")).toBeUndefined();
  });

  it("points at the catalog endpoint", () => {
    expect(catalogTypeUrl("messages")).toBe("/api/workflows/catalog/types/messages");
  });
});
