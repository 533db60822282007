import type { UIMessage } from "ai";
import { expect } from "vitest";
import type { NativeEvent } from "@/server/streams";
import { checkUiChunks, ndjsonData, sseData } from "./ui-stream-check";

export type TransportName = "batch" | "sse" | "ndjson";
export type FormatName = "native" | "ui_sdk";

export const ACCEPT: Record<TransportName, string> = {
  batch: "application/json",
  sse: "text/event-stream",
  ndjson: "application/x-ndjson",
};

/** What a turn looked like, whatever the transport: native events, or the UI message and chunks. */
export interface Observed {
  status: number;
  headers: Headers;
  /** Native formats: the events of the stream (batch: the folded outputs instead). */
  events?: NativeEvent[];
  /** ui_sdk streams: the chunks, already checked against the SDK schema and reader. */
  chunks?: any[];
  message?: UIMessage;
  batch?: any;
}

export async function invokeOver(
  baseUrl: string,
  key: string,
  transport: TransportName,
  format: FormatName,
  body: unknown,
  options: { expectedErrors?: string[]; headers?: Record<string, string>; continues?: UIMessage } = {},
): Promise<Observed> {
  const response = await fetch(`${baseUrl}/services/agent/v0/invoke`, {
    method: "POST",
    headers: {
      authorization: `ApiKey ${key}`,
      "content-type": "application/json",
      accept: ACCEPT[transport],
      "x-svc-messages-format": format,
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const observed: Observed = { status: response.status, headers: response.headers };
  if (response.status !== 200) {
    observed.batch = JSON.parse(text);
    return observed;
  }
  if (transport === "batch") {
    observed.batch = JSON.parse(text);
    if (format === "ui_sdk") observed.message = observed.batch.data.outputs.messages[0];
    return observed;
  }
  const raw = transport === "sse" ? sseData(text) : { frames: ndjsonData(text), sentinel: false, comments: [] };
  if (format === "native") {
    expect(raw.sentinel).toBe(false);
    observed.events = (raw.frames as Array<{ type: string; data: Record<string, unknown> }>).map(
      (f) => ({ type: f.type, ...f.data }) as NativeEvent,
    );
    checkNativeRules(observed.events);
  } else {
    if (transport === "sse") expect(raw.sentinel).toBe(true);
    observed.chunks = raw.frames;
    observed.message = await checkUiChunks(raw.frames, options.expectedErrors ?? [], options.continues);
    checkUiRules(observed.chunks);
  }
  return observed;
}

/** The stream rules of the contract, checked on every native stream of every test. */
export function checkNativeRules(events: NativeEvent[]): void {
  const dones = events.filter((e) => e.type === "done");
  expect(dones).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("done");
  const usageIndex = events.findIndex((e) => e.type === "usage");
  if (usageIndex >= 0) expect(usageIndex).toBe(events.length - 2);
  const open = new Set<string>();
  const order: number[] = [];
  for (const event of events) {
    if (event.type === "message_start" || event.type === "thought_start") {
      open.add(event.id);
      order.push(Number(event.id.split("-")[1]));
    }
    if ((event.type === "message_delta" || event.type === "thought_delta") && !open.has(event.id))
      throw new Error(`delta for unopened block ${event.id}`);
    if (event.type === "message_end" || event.type === "thought_end") expect(open.delete(event.id)).toBe(true);
  }
  expect(open.size).toBe(0);
  expect(order).toEqual([...order].sort((a, b) => a - b));
}

export function checkUiRules(chunks: any[]): void {
  expect(chunks.slice(0, 2).map((c) => c.type)).toEqual(["start", "start-step"]);
  expect(chunks.slice(-2).map((c) => c.type)).toEqual(["finish-step", "finish"]);
}

/** The assistant text of a native stream, reassembled from its deltas. */
export function nativeText(events: NativeEvent[], kind: "message" | "thought" = "message"): string {
  return events
    .filter((e) => e.type === `${kind}_delta`)
    .map((e) => (e as { delta: string }).delta)
    .join("");
}
