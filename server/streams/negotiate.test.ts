import { expect, it } from "vitest";
import { negotiateFormat, negotiateTransport } from "./negotiate";

it("picks the transport from Accept, falling back to flags.stream for absent or wildcard", () => {
  expect(negotiateTransport("application/json", true)).toBe("batch");
  expect(negotiateTransport("text/event-stream", false)).toBe("sse");
  expect(negotiateTransport("application/x-ndjson", false)).toBe("ndjson");
  expect(negotiateTransport("application/jsonl; q=0.9", false)).toBe("ndjson");
  expect(negotiateTransport(null, false)).toBe("batch");
  expect(negotiateTransport(null, true)).toBe("sse");
  expect(negotiateTransport("*/*", true)).toBe("sse");
  expect(negotiateTransport("text/html, text/event-stream", false)).toBe("sse");
  expect(() => negotiateTransport("text/html", false)).toThrow(
    expect.objectContaining({ status: 406, code: "not_acceptable" }),
  );
});

it("accepts absent, native and ui_sdk as the messages format and rejects anything else", () => {
  expect(negotiateFormat(null)).toBe("native");
  expect(negotiateFormat("native")).toBe("native");
  expect(negotiateFormat("ui_sdk")).toBe("ui_sdk");
  expect(() => negotiateFormat("vercel")).toThrow(
    expect.objectContaining({ status: 400, code: "invalid_messages_format" }),
  );
});
