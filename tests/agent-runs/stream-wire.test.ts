import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_OUTPUT_MESSAGE } from "@/server/streams";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

/**
 * What a reference client reads off an agent turn besides the frames themselves: the response
 * headers (the reference's version, span and baggage headers, the AI SDK's own stream header) and
 * the failure parts of a UI Message Stream (`data-agent-error{code, errorText}` before `error`).
 */
let f: RunFixture;
beforeAll(async () => {
  // The production front, which also checks that every header sent is documented.
  f = await createRunFixture({}, { door: "http" });
});
afterAll(async () => {
  await f.close();
});

const hi = [{ role: "user", content: "hi" }];

describe("turn response headers", () => {
  it("carry the version, trace, span and session ids, baggage and traceparent on every transport", async () => {
    for (const [transport, format] of [
      ["sse", "ui_sdk"],
      ["sse", "native"],
      ["ndjson", "native"],
      ["batch", "native"],
    ] as const) {
      f.model.script({ kind: "reply", text: "Hello" });
      const o = await f.invoke(f.agent(), `hdr-${transport}-${format}`, hi, { transport, format });
      expect(o.status).toBe(200);
      const traceId = o.headers.get("x-svc-trace-id")!;
      const spanId = o.headers.get("x-svc-span-id")!;
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(o.headers.get("traceparent")).toBe(`00-${traceId}-${spanId}-01`);
      expect(o.headers.get("x-svc-version")).toBe("2025.07.14");
      expect(o.headers.get("x-svc-session-id")).toBe(`hdr-${transport}-${format}`);
      expect(o.headers.get("baggage")).toBe(`ag.session.id=hdr-${transport}-${format}`);
      if (transport === "batch") expect(o.batch).toMatchObject({ version: "2025.07.14", span_id: spanId });
      if (transport !== "batch") {
        expect(o.headers.get("cache-control")).toBe("no-cache");
        expect(o.headers.get("x-accel-buffering")).toBe("no");
      }
      if (format === "ui_sdk") {
        expect(o.headers.get("x-ui-message-stream")).toBe("v1");
        // The AI SDK's own header (createUIMessageStreamResponse sends it), which the reference sends.
        expect(o.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      } else expect(o.headers.get("x-vercel-ai-ui-message-stream")).toBeNull();
    }
  });
});

describe("UI Message Stream failure parts", () => {
  it("a failed turn sends data-agent-error{code, errorText} then error, and still ends finish-step, finish", async () => {
    f.model.script({ kind: "error-event", text: "Hel" });
    const text = "The openai provider reported an error in the middle of its reply; retry the turn.";
    const o = await f.invoke(f.agent(), "fail-1", hi, { format: "ui_sdk", expectedErrors: [text] });
    expect(o.status).toBe(200);
    const chunks = o.chunks!;
    const at = chunks.findIndex((c) => c.type === "data-agent-error");
    expect(chunks[at]).toEqual({ type: "data-agent-error", data: { code: "runner_error", errorText: text } });
    expect(chunks[at + 1]).toEqual({ type: "error", errorText: text });
    expect(chunks.slice(at + 2).map((c) => c.type)).toEqual(["finish-step", "finish"]);
    expect(chunks.at(-1)).toMatchObject({ finishReason: "error" });
    // The reader keeps the code with the message, where a client looks for it.
    expect(o.message!.parts).toContainEqual(
      expect.objectContaining({ type: "data-agent-error", data: { code: "runner_error", errorText: text } }),
    );
  });

  it("a turn with no content gets only error{errorText: 'The agent produced no output.'}", async () => {
    f.model.script({ kind: "reply", text: "" });
    const o = await f.invoke(f.agent(), "empty-1", hi, { format: "ui_sdk", expectedErrors: [NO_OUTPUT_MESSAGE] });
    expect(o.chunks!.map((c) => c.type)).toEqual(["start", "start-step", "error", "finish-step", "finish"]);
    expect(o.chunks![2]).toEqual({ type: "error", errorText: NO_OUTPUT_MESSAGE });
  });
});
