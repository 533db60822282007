import { describe, expect, it } from "vitest";
import { sessionTitle, uiMessagesFromGenAi } from "@/server/chat-sessions";
import { attributeAt, OUTPUT_NOT_RECORDED, spanMessages } from "@/shared/trace-messages";
import { EVENT_GROUPS, eventChoiceOf } from "@/components/webhooks/event-groups";
import {
  formOf,
  parseHeaderLines,
  subscriptionInputOf,
  emptySubscriptionForm,
} from "@/components/webhooks/subscription-form";
import { EVENT_TYPES } from "@/shared/event-catalog";

describe("sessionTitle", () => {
  it("is the first user text on one line, cut at 80 characters", () => {
    expect(
      sessionTitle([
        { role: "assistant", parts: [{ type: "text", text: "Hi" }] },
        { role: "user", parts: [{ type: "text", text: " Plan\n  a  trip " }] },
      ]),
    ).toBe("Plan a trip");
    const long = sessionTitle([{ role: "user", parts: [{ type: "text", text: "x".repeat(200) }] }]);
    expect(long).toHaveLength(80);
    expect(long.endsWith("…")).toBe(true);
  });
  it("falls back when no user message has text", () => {
    expect(sessionTitle([{ role: "user", parts: [{ type: "file" }] }])).toBe("Untitled chat");
    expect(sessionTitle([])).toBe("Untitled chat");
  });
});

describe("uiMessagesFromGenAi: a trace's messages in the chat's shape", () => {
  const call = (toolCallId: string, toolName: string, input: unknown) => ({
    type: "tool_call",
    content: { type: "tool_call", toolCallId, toolName, input },
  });
  const result = (content: Record<string, unknown>) => ({
    type: "tool_result",
    content: { type: "tool_result", ...content },
  });

  it("settles history tool calls with their results, denials and errors, and folds assistant and tool messages into one turn", () => {
    const input = [
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Clean up" }] },
      {
        role: "assistant",
        parts: [
          { type: "text", content: "Running three tools." },
          call("a", "bash", { command: "ls" }),
          call("b", "bash", { command: "rm -rf /" }),
          call("c", "read", { path: "x" }),
        ],
      },
      {
        role: "tool",
        parts: [
          result({ toolCallId: "a", output: "file.txt" }),
          result({ toolCallId: "b", approved: false, interactionToken: "apr_1" }),
          result({ toolCallId: "c", output: "missing", isError: true }),
        ],
      },
      { role: "user", parts: [{ type: "text", content: "Thanks" }] },
    ];
    const messages = uiMessagesFromGenAi(input, [{ role: "assistant", parts: [{ type: "text", content: "Done." }] }]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1].parts).toEqual([
      { type: "text", text: "Running three tools." },
      { type: "tool-bash", toolCallId: "a", state: "output-available", input: { command: "ls" }, output: "file.txt" },
      {
        type: "tool-bash",
        toolCallId: "b",
        state: "output-denied",
        input: { command: "rm -rf /" },
        approval: { id: "apr_1", approved: false },
      },
      { type: "tool-read", toolCallId: "c", state: "output-error", input: { path: "x" }, errorText: "missing" },
    ]);
    expect(messages[3]).toEqual({
      id: "trace-out",
      role: "assistant",
      parts: [{ type: "step-start" }, { type: "text", text: "Done.", state: "done" }],
    });
  });

  it("a call the server ran is done although its output is not recorded; any other stays waiting", () => {
    const outputs = [
      {
        role: "assistant",
        parts: [
          { type: "tool_call", id: "t1", name: "bash", arguments: { command: "date" } },
          { type: "tool_call", id: "t2", name: "pick", arguments: {} },
        ],
      },
      { role: "assistant", parts: [{ type: "text", content: "It is noon." }] },
    ];
    const [reply] = uiMessagesFromGenAi([], outputs, new Map([["t1", undefined]]));
    expect(reply.parts).toEqual([
      { type: "step-start" },
      {
        type: "tool-bash",
        toolCallId: "t1",
        state: "output-available",
        input: { command: "date" },
        output: OUTPUT_NOT_RECORDED,
      },
      { type: "tool-pick", toolCallId: "t2", state: "input-available", input: {} },
      { type: "step-start" },
      { type: "text", text: "It is noon.", state: "done" },
    ]);
  });

  it("no content kept: no messages", () => {
    expect(uiMessagesFromGenAi([], [])).toEqual([]);
    expect(spanMessages({ gen_ai: { operation: { name: "chat" } } })).toEqual({ input: [], output: [] });
  });

  it("reads messages where the trace store keeps them, and the GenAI names as sent (JSON text)", () => {
    const stored = { ag: { data: { inputs: { messages: [{ role: "user", parts: [] }] } } } };
    expect(spanMessages(stored).input).toEqual([{ role: "user", parts: [] }]);
    const sent = {
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "x" }] }]),
    };
    expect(spanMessages(sent).output).toHaveLength(1);
    expect(spanMessages({ "gen_ai.input.messages": "not json" }).input).toEqual([]);
    expect(attributeAt({ a: { b: { c: 1 } } }, "a.b.c")).toBe(1);
    expect(attributeAt({ "a.b": 2 }, "a.b")).toBe(2);
  });
});

describe("the webhook form", () => {
  it("parses header lines and names the line that is wrong", () => {
    expect(parseHeaderLines("X-Team: agents\n\n  X-Env:prod ")).toEqual({
      headers: { "X-Team": "agents", "X-Env": "prod" },
    });
    expect(parseHeaderLines("X-Team agents")).toEqual({ error: "Header line 1 needs the form “Name: value”." });
  });

  it("becomes the router's input: empty lists and text are null, the secret only when typed", () => {
    const form = {
      ...emptySubscriptionForm(),
      name: " Deploys ",
      url: "https://hooks.example.com/x ",
      eventChoice: "chosen" as const,
      eventTypes: ["environments.revisions.committed"],
    };
    expect(subscriptionInputOf(form)).toEqual({
      subscription: {
        name: "Deploys",
        description: null,
        data: {
          url: "https://hooks.example.com/x",
          event_types: ["environments.revisions.committed"],
          headers: null,
          auth_mode: "signature",
        },
      },
    });
    expect(subscriptionInputOf({ ...form, secret: "s".repeat(20), headers: "X-A: 1" })).toMatchObject({
      secret: "s".repeat(20),
      subscription: { data: { headers: { "X-A": "1" } } },
    });
    expect(subscriptionInputOf({ ...form, headers: "broken" })).toEqual({
      error: "Header line 1 needs the form “Name: value”.",
    });
  });

  it("starts on changes only; every event is an explicit choice, and choosing with nothing ticked is refused", () => {
    const form = { ...emptySubscriptionForm(), name: "Hooks", url: "https://h.example.com/" };
    const changes = subscriptionInputOf(form) as { subscription: { data: { event_types: string[] } } };
    expect(changes.subscription.data.event_types).toContain("environments.revisions.committed");
    expect(changes.subscription.data.event_types).toContain("workflows.revisions.committed");
    expect(
      changes.subscription.data.event_types.some((type) => /\.(fetched|retrieved|queried|logged)$/.test(type)),
    ).toBe(false);
    expect(subscriptionInputOf({ ...form, eventChoice: "all" })).toMatchObject({
      subscription: { data: { event_types: null } },
    });
    expect(subscriptionInputOf({ ...form, eventChoice: "chosen" })).toEqual({
      error: "Tick at least one event, or choose “Every event”.",
    });
    expect(eventChoiceOf(changes.subscription.data.event_types)).toBe("changes");
    expect(eventChoiceOf(null)).toBe("all");
    expect(eventChoiceOf(["traces.fetched"])).toBe("chosen");
  });

  it("groups the event catalog by what it is about, and says a deploy is an environment commit", () => {
    const environments = EVENT_GROUPS.find((g) => g.name === "environments")!;
    expect(environments.events[0]).toEqual({
      type: "environments.revisions.committed",
      label: "a deploy (an environment revision committed)",
      read: false,
    });
    expect(EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type)).sort()).toEqual([...EVENT_TYPES].sort());
    expect(
      EVENT_GROUPS.slice(0, 2)
        .map((g) => g.name)
        .sort(),
    ).toEqual(["environments", "workflows"]);
  });

  it("an edited subscription fills the form back (never a secret)", () => {
    const subscription = {
      id: "1",
      name: "Deploys",
      data: {
        url: "https://h.example.com/",
        event_types: ["traces.fetched"],
        headers: { "X-A": "1" },
        auth_mode: "authorization",
      },
      flags: { is_active: true },
      created_at: "",
      updated_at: "",
    } as unknown as Parameters<typeof formOf>[0];
    expect(formOf(subscription)).toEqual({
      name: "Deploys",
      description: "",
      url: "https://h.example.com/",
      eventChoice: "chosen",
      eventTypes: ["traces.fetched"],
      headers: "X-A: 1",
      authMode: "authorization",
      secret: "",
    });
  });
});
