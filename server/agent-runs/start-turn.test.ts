import { describe, expect, it } from "vitest";
import { defaultAgentTemplate, parseAgentTemplate } from "@/server/agent-template";
import type { NativeEvent } from "@/server/streams";
import type { Harness, TurnInput } from "./run-types";
import { startTurn } from "./start-turn";

const template = parseAgentTemplate({ ...defaultAgentTemplate(), tools: [] }).template;
const input = (limits: Partial<TurnInput["limits"]> = {}): TurnInput => ({
  projectId: "p",
  agent: {},
  template,
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  connection: {
    provider: "openai",
    model: "gpt-5-mini",
    deployment: "direct",
    label: "the openai key from OPENAI_API_KEY",
  },
  tools: { byName: new Map(), toolSet: {} },
  sessionId: "s",
  limits: { totalMs: 5_000, firstTokenMs: 5_000, idleMs: 5_000, maxSteps: 5, maxRetries: 0, ...limits },
});
const trace = { traceId: "a".repeat(32), spanId: "b".repeat(16) };

async function collect(harness: Harness, limits?: Partial<TurnInput["limits"]>) {
  const turn = startTurn(harness, input(limits), trace, { harnessKind: "core_harness" });
  const events: NativeEvent[] = [];
  for await (const event of turn.events as unknown as AsyncIterable<NativeEvent>) events.push(event);
  return { events, record: await turn.record };
}

/** Waits until the run is aborted, as a stuck model request would. */
const stuck = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

describe("the turn engine", () => {
  it("adds usage with the catalog cost right before exactly one done, and records timings", async () => {
    const { events, record } = await collect({
      run: async (_i, emit) => {
        emit({ type: "message_start", id: "msg-0" });
        emit({ type: "message_delta", id: "msg-0", delta: "hi" });
        emit({ type: "message_end", id: "msg-0" });
        return {
          stopReason: "stop",
          usage: { input: 1_000_000, output: 0, total: 1_000_000 },
          steps: [{ index: 0, startedAt: 1, endedAt: 2, toolCalls: [] }],
        };
      },
    });
    expect(events.slice(-2)).toEqual([
      { type: "usage", input: 1_000_000, output: 0, total: 1_000_000, cost: 0.25 },
      { type: "done", stopReason: "stop", traceId: trace.traceId },
    ]);
    expect(record).toMatchObject({
      traceId: trace.traceId,
      spanId: trace.spanId,
      stopReason: "stop",
      harness: "core_harness",
      steps: [{ index: 0 }],
    });
  });

  it("gives an empty turn the no-output error and a throwing harness a readable one", async () => {
    const empty = await collect({ run: async () => ({ stopReason: "stop", steps: [] }) });
    expect(empty.events).toEqual([
      { type: "error", message: "The agent produced no output." },
      { type: "done", stopReason: "stop", traceId: trace.traceId },
    ]);
    const thrown = await collect({
      run: async () => {
        throw new TypeError("fetch failed at sk-secret");
      },
    });
    expect(thrown.events[0]).toEqual({
      type: "error",
      message: "The connection to the openai provider was lost before the reply finished; retry the turn.",
    });
    expect(thrown.record.stopReason).toBe("error");
  });

  it("stops a model that never answers at the first-token limit, and one that goes quiet at the idle limit", async () => {
    const first = await collect(
      { run: async (_i, _e, signal) => (await stuck(signal), { stopReason: "cancelled", steps: [] }) },
      { firstTokenMs: 20 },
    );
    expect(first.events.map((e) => e.type)).toEqual(["error", "done"]);
    expect((first.events[0] as { message: string }).message).toContain("AGENT_FIRST_TOKEN_TIMEOUT_MS");
    const idle = await collect(
      {
        run: async (_i, emit, signal) => {
          emit({ type: "message_start", id: "msg-0" });
          emit({ type: "message_delta", id: "msg-0", delta: "par" });
          await stuck(signal);
          return { stopReason: "cancelled", steps: [] };
        },
      },
      { idleMs: 20 },
    );
    expect(idle.events.map((e) => e.type)).toEqual(["message_start", "message_delta", "message_end", "error", "done"]);
    expect((idle.events[3] as { message: string }).message).toContain("AGENT_IDLE_TIMEOUT_MS");
    const total = await collect(
      { run: async (_i, _e, signal) => (await stuck(signal), { stopReason: "cancelled", steps: [] }) },
      { totalMs: 20 },
    );
    expect((total.events[0] as { message: string }).message).toContain("AGENT_RUN_TIMEOUT_MS");
  });

  it("aborts the harness when the consumer cancels the stream", async () => {
    let aborted = false;
    const turn = startTurn(
      {
        run: async (_i, _e, signal) => (await stuck(signal), (aborted = true), { stopReason: "cancelled", steps: [] }),
      },
      input(),
      trace,
      { harnessKind: "core_harness" },
    );
    await turn.events.cancel();
    const record = await turn.record;
    expect(aborted).toBe(true);
    expect(record.stopReason).toBe("cancelled");
  });

  it("ends a turn the service cancelled as cancelled, whatever the harness made of the abort", async () => {
    // A reply cut off by our own abort: the SDK sees a broken stream and the harness fails or throws.
    const failing: Harness[] = [
      {
        run: async (_i, emit, signal) => {
          emit({ type: "message_start", id: "msg-0" });
          emit({ type: "message_delta", id: "msg-0", delta: "par" });
          await stuck(signal);
          throw new TypeError("terminated");
        },
      },
      {
        run: async (_i, _e, signal) => (
          await stuck(signal),
          { stopReason: "error", steps: [], error: "The connection to the openai provider was lost" }
        ),
      },
    ];
    for (const harness of failing) {
      const turn = startTurn(harness, input(), trace, { harnessKind: "core_harness" });
      const events: NativeEvent[] = [];
      const reading = (async () => {
        for await (const event of turn.events as unknown as AsyncIterable<NativeEvent>) events.push(event);
      })();
      turn.cancel("cancelled");
      await reading;
      const record = await turn.record;
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      expect(events.at(-1)).toEqual({ type: "done", stopReason: "cancelled", traceId: trace.traceId });
      expect(record).toMatchObject({ stopReason: "cancelled", error: undefined });
    }
    // A limit the service enforces is still a failure, named by its limit, not by the provider.
    const limited = await collect(
      { run: async (_i, _e, signal) => (await stuck(signal), Promise.reject(new TypeError("terminated"))) },
      { totalMs: 20 },
    );
    expect(limited.record.stopReason).toBe("error");
    expect(limited.record.error).toContain("AGENT_RUN_TIMEOUT_MS");
  });
});
