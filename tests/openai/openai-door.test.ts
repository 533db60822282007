import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { runsRecorded } from "../helpers/after-runs";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let client: OpenAI;
let variantSlug: string;
let variantId: string;
const revisionIds: string[] = [];

const agent = (agentsMd: string) => ({
  instructions: { agents_md: agentsMd },
  llm: { model: "openai/gpt-5-mini" },
  tools: [],
});
const lastModelInput = () => JSON.stringify(model.requests.at(-1)!.body.input);

/** A door run once its end is recorded (a moment after the answer's last byte: awaited). */
async function endedRun(runId: string) {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.run.status).not.toBe("running");
  return res.body;
}

beforeAll(async () => {
  model = await startScriptedModelServer();
  // No retries: the failure cases answer at once instead of after the SDK's backoff.
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-door", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
  });
  live = await serveOverHttp(app);
  ({ key } = await app.newProject());
  client = new OpenAI({ apiKey: key, baseURL: `${live.origin}/v1`, maxRetries: 0 });
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "greeter",
        name: "Greeter",
        data: { parameters: { agent: agent("Version one: greet in French.") } },
      },
    },
  });
  expect(created.status).toBe(200);
  variantSlug = created.body.workflow_variant.slug;
  variantId = created.body.workflow_variant.id;
  revisionIds.push(created.body.workflow_revision.id);
  const second = await app.call("POST", "/api/workflows/revisions/commit", {
    key,
    body: {
      workflow_revision_commit: {
        workflow_variant_id: variantId,
        message: "v2",
        data: { parameters: { agent: agent("Version two: greet in German.") } },
      },
    },
  });
  expect(second.status).toBe(200);
  revisionIds.push(second.body.workflow_revision.id);
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

describe("the official openai client: chat completions", () => {
  it("answers a completion from the agent's latest revision, with usage and the run's trace id", async () => {
    model.script({ kind: "reply", text: "Hallo!", usage: { input: 12, output: 3 } });
    const { data, response } = await client.chat.completions
      .create({ model: "greeter", messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(data.object).toBe("chat.completion");
    expect(data.model).toBe("greeter");
    expect(data.choices[0]).toMatchObject({
      index: 0,
      finish_reason: "stop",
      message: { role: "assistant", content: "Hallo!" },
    });
    expect(data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    expect(response.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(data.id).toBe(`chatcmpl-${response.headers.get("x-svc-trace-id")}`);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(lastModelInput()).toContain("Version two: greet in German.");
  });

  it("streams chunks the client reassembles, with the usage chunk when asked", async () => {
    model.script({ kind: "reply", text: "Guten Tag, wie geht es?", chunks: 4, usage: { input: 5, output: 6 } });
    const stream = await client.chat.completions.create({
      model: "greeter",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Guten Tag, wie geht es?");
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(1);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
    });
  });

  it("the request's tools come back as tool_calls, and the role: tool answer resumes the turn", async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather in a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    model.script({
      kind: "reply",
      text: "Let me look.",
      toolCalls: [{ id: "call_w1", name: "get_weather", input: { city: "Paris" } }],
    });
    const first = await client.chat.completions.create({
      model: "greeter",
      messages: [{ role: "user", content: "weather in Paris?" }],
      tools,
    });
    const offered = model.requests.at(-1)!.body.tools;
    expect(offered).toEqual([
      expect.objectContaining({ type: "function", name: "get_weather", description: "Weather in a city" }),
    ]);
    const choice = first.choices[0];
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBe("Let me look.");
    expect(choice.message.tool_calls).toEqual([
      {
        id: "call_w1",
        type: "function",
        function: { name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) },
      },
    ]);

    model.script({ kind: "reply", text: "Sunny in Paris." });
    const second = await client.chat.completions.create({
      model: "greeter",
      messages: [
        { role: "user", content: "weather in Paris?" },
        choice.message,
        { role: "tool", tool_call_id: "call_w1", content: "sunny, 21C" },
      ],
      tools,
    });
    expect(second.choices[0].message.content).toBe("Sunny in Paris.");
    const sent = model.requests.at(-1)!.body.input;
    expect(sent.at(-2)).toEqual({
      type: "function_call",
      call_id: "call_w1",
      name: "get_weather",
      arguments: JSON.stringify({ city: "Paris" }),
    });
    expect(sent.at(-1)).toEqual({ type: "function_call_output", call_id: "call_w1", output: "sunny, 21C" });
  });

  it("streams a client tool call as one tool_calls delta and finish_reason tool_calls", async () => {
    model.script({ kind: "reply", toolCalls: [{ id: "call_s1", name: "lookup", input: { q: "x" } }] });
    const stream = await client.chat.completions.create({
      model: "greeter",
      messages: [{ role: "user", content: "look it up" }],
      tools: [
        {
          type: "function",
          function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
        },
      ],
      stream: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: "call_s1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
    ]);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("tool_calls");
  });
});

describe("request mapping", () => {
  it("images reach the model; a request tool may not reuse a name the agent has", async () => {
    model.script({ kind: "reply", text: "A red dot." });
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    await client.chat.completions.create({
      model: "greeter",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${pixel}` } },
          ],
        },
      ],
    });
    const content = model.requests.at(-1)!.body.input.at(-1).content;
    expect(content[0]).toEqual({ type: "input_text", text: "what is this?" });
    expect(content[1]).toMatchObject({ type: "input_image", image_url: `data:image/png;base64,${pixel}` });

    const withTool = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "picker",
          name: "Picker",
          data: {
            parameters: {
              agent: { llm: { model: "openai/gpt-5-mini" }, tools: [{ type: "client", name: "pick_color" }] },
            },
          },
        },
      },
    });
    expect(withTool.status).toBe(200);
    await expect(
      client.chat.completions.create({
        model: "picker",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "pick_color" } }],
      }),
    ).rejects.toMatchObject({ status: 400, error: { type: "invalid_request_error", code: "duplicate_tool" } });
  });
});

describe("approvals are unattended", () => {
  it("a call the policy would ask about is refused and the model told; unattended: fail ends the run instead", async () => {
    // The default policy (allow_reads) asks before `write`.
    const writer = { llm: { model: "openai/gpt-5-mini" }, tools: [{ type: "builtin", name: "write" }] };
    expect(
      (
        await app.call("POST", "/api/workflows/", {
          key,
          body: { workflow: { slug: "writer", name: "Writer", data: { parameters: { agent: writer } } } },
        })
      ).status,
    ).toBe(200);
    const write = { id: "call_write", name: "write", input: { path: "notes.txt", content: "hello" } };
    model.script(
      { kind: "reply", text: "Saving.", toolCalls: [write] },
      { kind: "reply", text: "I was not allowed to save it." },
    );
    const denied = await client.chat.completions.create({
      model: "writer",
      messages: [{ role: "user", content: "save a note" }],
    });
    expect(denied.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: "Saving.\n\nI was not allowed to save it." },
    });
    const told = model.requests.at(-1)!.body.input.at(-1);
    expect(told).toMatchObject({ type: "function_call_output", call_id: "call_write" });
    expect(JSON.stringify(told.output)).toMatch(/den/i);

    model.script({ kind: "reply", text: "Saving.", toolCalls: [write] });
    await expect(
      client.chat.completions.create({
        model: "writer",
        messages: [{ role: "user", content: "save a note" }],
        unattended: "fail",
      } as never),
    ).rejects.toMatchObject({
      status: 502,
      error: { code: "agent_run_failed", message: expect.stringContaining("approval") },
    });
  });
});

describe("the official openai client: responses", () => {
  it("answers a response object, and previous_response_id continues it in the same session", async () => {
    model.script({ kind: "reply", text: "Bonjour!", usage: { input: 4, output: 2 } });
    const { data: first, response } = await client.responses
      .create({ model: "greeter", input: "hello", instructions: "Be terse." })
      .withResponse();
    expect(first).toMatchObject({
      object: "response",
      status: "completed",
      model: "greeter",
      previous_response_id: null,
      usage: { input_tokens: 4, output_tokens: 2, total_tokens: 6 },
    });
    expect(first.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(first.output_text).toBe("Bonjour!");
    expect(lastModelInput()).toContain("Be terse.");
    const session = response.headers.get("x-svc-session-id");

    model.script({ kind: "reply", text: "Ça va bien." });
    const { data: second, response: secondResponse } = await client.responses
      .create({ model: "greeter", input: "how are you?", previous_response_id: first.id })
      .withResponse();
    expect(second.output_text).toBe("Ça va bien.");
    expect(second.previous_response_id).toBe(first.id);
    expect(secondResponse.headers.get("x-svc-session-id")).toBe(session);
    const replayed = lastModelInput();
    expect(replayed).toContain("hello");
    expect(replayed).toContain("Bonjour!");
    expect(replayed).toContain("how are you?");
    // instructions belong to the call that sent them, as with OpenAI
    expect(replayed).not.toContain("Be terse.");
  });

  it("streams Responses events the client accumulates, and a function call round trip through previous_response_id", async () => {
    model.script({
      kind: "reply",
      text: "Checking the weather.",
      chunks: 3,
      toolCalls: [{ id: "call_r1", name: "get_weather", input: { city: "Oslo" } }],
    });
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: "function",
        name: "get_weather",
        strict: false,
        parameters: { type: "object", properties: { city: { type: "string" } } },
      },
    ];
    const stream = client.responses.stream({ model: "greeter", input: "weather in Oslo?", tools });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types).toContain("response.output_text.delta");
    expect(types).toContain("response.function_call_arguments.done");
    expect(types.at(-1)).toBe("response.completed");
    // openai v6 (the last line for Node 20) leaves `output_text` to non-streamed responses: read the
    // message item the client accumulated from the deltas.
    const message = final.output.find((item) => item.type === "message");
    expect(message?.type === "message" && message.content).toEqual([
      expect.objectContaining({ type: "output_text", text: "Checking the weather." }),
    ]);
    const call = final.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({
      type: "function_call",
      call_id: "call_r1",
      name: "get_weather",
      arguments: '{"city":"Oslo"}',
    });

    model.script({ kind: "reply", text: "Snow in Oslo." });
    const answered = await client.responses.create({
      model: "greeter",
      previous_response_id: final.id,
      input: [{ type: "function_call_output", call_id: "call_r1", output: "snow" }],
      tools,
    });
    expect(answered.output_text).toBe("Snow in Oslo.");
    const sent = model.requests.at(-1)!.body.input;
    expect(sent.at(-1)).toEqual({ type: "function_call_output", call_id: "call_r1", output: "snow" });
  });
});

describe("the AI SDK's @ai-sdk/openai provider", () => {
  const provider = () => createOpenAI({ apiKey: key, baseURL: `${live.origin}/v1` });

  it("generateText and streamText over chat completions", async () => {
    model.script({ kind: "reply", text: "Hi from chat.", usage: { input: 3, output: 4 } });
    const generated = await generateText({ model: provider().chat("greeter"), prompt: "hi" });
    expect(generated.text).toBe("Hi from chat.");
    expect(generated.finishReason).toBe("stop");
    expect(generated.usage.inputTokens).toBe(3);
    model.script({ kind: "reply", text: "Streamed over chat.", chunks: 3 });
    const streamed = streamText({ model: provider().chat("greeter"), prompt: "hi" });
    expect(await streamed.text).toBe("Streamed over chat.");
  });

  it("generateText and streamText over responses", async () => {
    model.script({ kind: "reply", text: "Hi from responses." });
    const generated = await generateText({ model: provider().responses("greeter"), prompt: "hi" });
    expect(generated.text).toBe("Hi from responses.");
    expect(generated.finishReason).toBe("stop");
    model.script({ kind: "reply", text: "Streamed over responses.", chunks: 3 });
    const streamed = streamText({ model: provider().responses("greeter"), prompt: "hi" });
    expect(await streamed.text).toBe("Streamed over responses.");
    expect(await streamed.finishReason).toBe("stop");
  });
});

describe("every call is an agent run", () => {
  it("is traced under the trace id of its header, as the agent's invoke_agent span", async () => {
    model.script({ kind: "reply", text: "Traced hello." });
    const { response } = await client.chat.completions
      .create({ model: "greeter", messages: [{ role: "user", content: "trace me" }] })
      .withResponse();
    const traceId = response.headers.get("x-svc-trace-id")!;
    await runsRecorded(app.context);
    const body = (await app.call("GET", `/api/traces/${traceId}`, { key })).body;
    expect(body?.count).toBeGreaterThan(0);
    const text = JSON.stringify(body);
    expect(text).toContain("invoke_agent greeter");
    expect(text).toContain("trace me");
    expect(text).toContain("Traced hello.");
    expect(text).toContain(revisionIds[1]);
  });

  it("is recorded as a run (origin openai): listed, its events and folded messages fetched by the x-svc-run-id it answers", async () => {
    model.script({ kind: "reply", text: "Recorded hello.", usage: { input: 12, output: 3 } });
    const { response } = await client.chat.completions
      .create({ model: "greeter", messages: [{ role: "user", content: "record me" }] })
      .withResponse();
    const runId = response.headers.get("x-svc-run-id")!;
    const detail = await endedRun(runId);
    expect(detail.run).toMatchObject({
      id: runId,
      origin: "openai",
      parent_run_id: null,
      status: "finished",
      stop_reason: "stop",
      session_id: response.headers.get("x-svc-session-id"),
      trace_id: response.headers.get("x-svc-trace-id"),
      usage: { input: 12, output: 3, total: 15 },
      agent: { references: { workflow_revision: { id: revisionIds[1] } } },
    });
    expect(detail.outputs.messages).toEqual([{ role: "assistant", content: "Recorded hello." }]);
    expect(detail.events.at(-1)).toMatchObject({ type: "done", data: { stopReason: "stop" } });

    model.script({ kind: "reply", text: "Responded." });
    const { response: viaResponses } = await client.responses
      .create({ model: "greeter", input: "and me", stream: true })
      .withResponse();
    await viaResponses.text();
    const second = await endedRun(viaResponses.headers.get("x-svc-run-id")!);
    expect(second.run).toMatchObject({ origin: "openai", status: "finished" });
    expect(second.outputs.messages).toEqual([{ role: "assistant", content: "Responded." }]);

    const listed = await app.call("GET", "/services/agent/v0/runs?origin=openai&limit=200", { key });
    const ids = listed.body.runs.map((run: { id: string }) => run.id);
    expect(ids).toContain(runId);
    expect(ids).toContain(second.run.id);
    expect(listed.body.runs.every((run: { origin: string }) => run.origin === "openai")).toBe(true);
  });

  it("a client that goes away cancels the run and its model request, as OpenAI does for a request that is not background", async () => {
    model.script({ kind: "hang" });
    const arrived = model.nextRequest();
    const closed = model.nextAbort();
    const controller = new AbortController();
    const response = await fetch(`${live.origin}/v1/chat/completions`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "greeter", messages: [{ role: "user", content: "wait" }], stream: true }),
    });
    const runId = response.headers.get("x-svc-run-id")!;
    await arrived;
    controller.abort();
    await closed;
    const detail = await endedRun(runId);
    expect(detail.run).toMatchObject({ origin: "openai", status: "cancelled", stop_reason: "cancelled" });
  });

  it("a run that fails after it started: a 502 error object without stream, an error item in the stream", async () => {
    model.script({ kind: "status", status: 500 });
    await expect(
      client.chat.completions.create({ model: "greeter", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({ status: 502, error: { type: "server_error", code: "agent_run_failed" } });
    model.script({ kind: "error-event", text: "half an answ" });
    const stream = await client.chat.completions.create({
      model: "greeter",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    ).rejects.toThrow(/middle of its reply/);
    expect("half an answ".startsWith(seen.join(""))).toBe(true);
    expect(seen.join("")).not.toBe("");
    model.script({ kind: "status", status: 500 });
    const failed = await client.responses.create({ model: "greeter", input: "hi" });
    expect(failed).toMatchObject({ status: "failed", error: { code: "server_error" } });
  });

  it("the Next.js route serves the same door", async () => {
    const next = await serveOverHttp(app, "next");
    try {
      model.script({ kind: "reply", text: "Via Next." });
      const viaNext = new OpenAI({ apiKey: key, baseURL: `${next.origin}/v1`, maxRetries: 0 });
      const stream = await viaNext.chat.completions.create({
        model: "greeter",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toBe("Via Next.");
      await expect(
        viaNext.chat.completions.create({ model: "nobody", messages: [{ role: "user", content: "hi" }] }),
      ).rejects.toMatchObject({ status: 404, error: { code: "model_not_found" } });
    } finally {
      await next.close();
    }
  });
});

describe("model names", () => {
  it("a deploy that moves @production changes what the next call runs; a pinned revision does not move", async () => {
    const deploy = (id: string) =>
      app.call("POST", "/api/workflows/revisions/deploy", {
        key,
        body: { workflow_revision_ref: { id }, environment_ref: { slug: "production" } },
      });
    model.script({ kind: "reply", text: "ok" });
    expect((await deploy(revisionIds[0])).status).toBe(200);
    await client.chat.completions.create({ model: "greeter@production", messages: [{ role: "user", content: "hi" }] });
    expect(lastModelInput()).toContain("Version one");
    expect((await deploy(revisionIds[1])).status).toBe(200);
    // Each call's run, by the id it answers: it records the environment that served it and the revision.
    const referencesOf = async (model: string) => {
      const { response } = await client.chat.completions
        .create({ model, messages: [{ role: "user", content: "hi" }] })
        .withResponse();
      return (await endedRun(response.headers.get("x-svc-run-id")!)).run.agent.references;
    };
    expect(await referencesOf("greeter@production")).toMatchObject({
      environment: { slug: "production" },
      workflow_revision: { id: revisionIds[1] },
    });
    expect(lastModelInput()).toContain("Version two");
    const pinned = await referencesOf(`greeter@${variantSlug}:1`);
    expect(lastModelInput()).toContain("Version one");
    expect(pinned).toMatchObject({ workflow_revision: { id: revisionIds[0] } });
    expect(pinned).not.toHaveProperty("environment");
  });

  it("GET /v1/models lists each agent and where it is deployed", async () => {
    const ids: string[] = [];
    for await (const entry of client.models.list()) ids.push(entry.id);
    expect(ids).toContain("greeter");
    expect(ids).toContain("greeter@production");
    expect(ids).not.toContain("greeter@staging");
    expect(await client.models.retrieve("greeter@production")).toMatchObject({
      id: "greeter@production",
      object: "model",
    });
    await expect(client.models.retrieve("greeter@staging")).rejects.toMatchObject({
      status: 404,
      error: { code: "model_not_found", param: "model" },
    });
  });
});

describe("prompt applications", () => {
  it("run with their messages first, placeholders from variables, and their llm_config; listed and deployable like agents", async () => {
    const prompt = {
      messages: [
        { role: "system", content: "You are {{persona}}." },
        { role: "user", content: "Background: {{topic}}" },
      ],
      llm_config: { model: "openai/gpt-4o-mini", temperature: 0.3, max_tokens: 50, top_p: 0.9 },
      template_format: "curly",
    };
    const created = await app.call("POST", "/api/applications/", {
      key,
      body: { application: { slug: "tutor", name: "Tutor", data: { parameters: { prompt } } } },
    });
    expect(created.status).toBe(200);
    model.script({ kind: "reply", text: "Photosynthesis turns light into sugar." });
    const { data, response } = await client.chat.completions
      .create({
        model: "tutor",
        messages: [{ role: "user", content: "Explain it." }],
        variables: { persona: "a patient biology tutor", topic: "plants" },
      } as never)
      .withResponse();
    expect((data as OpenAI.Chat.Completions.ChatCompletion).choices[0].message.content).toBe(
      "Photosynthesis turns light into sugar.",
    );
    const sent = model.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: "gpt-4o-mini", temperature: 0.3, max_output_tokens: 50, top_p: 0.9 });
    expect(sent.input).toEqual([
      { role: "system", content: "You are a patient biology tutor." },
      { role: "user", content: [{ type: "input_text", text: "Background: plants" }] },
      { role: "user", content: [{ type: "input_text", text: "Explain it." }] },
    ]);
    expect(response.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);

    await expect(
      client.chat.completions.create({
        model: "tutor",
        messages: [{ role: "user", content: "hi" }],
        variables: { persona: "x" },
      } as never),
    ).rejects.toMatchObject({
      status: 400,
      error: { code: "missing_variable", param: "variables.topic" },
    });
    await expect(
      client.chat.completions.create({
        model: "greeter",
        messages: [{ role: "user", content: "hi" }],
        variables: { persona: "x" },
      } as never),
    ).rejects.toMatchObject({
      status: 400,
      error: { code: "variables_not_used", param: "variables" },
    });
    const deployed = await app.call("POST", "/api/applications/revisions/deploy", {
      key,
      body: { application_ref: { slug: "tutor" }, environment_ref: { slug: "staging" } },
    });
    expect(deployed.status).toBe(200);
    model.script({ kind: "reply", text: "From staging." });
    const staged = await client.responses.create({
      model: "tutor@staging",
      input: "Explain it.",
      variables: { persona: "p", topic: "t" },
    } as never);
    expect((staged as OpenAI.Responses.Response).output_text).toBe("From staging.");
    const ids: string[] = [];
    for await (const entry of client.models.list()) ids.push(entry.id);
    expect(ids).toEqual(expect.arrayContaining(["tutor", "tutor@staging"]));
  });
});

describe("OpenAI-shaped 4xx errors, never a 5xx", () => {
  const expectError = async (call: Promise<unknown>, status: number, fields: Record<string, unknown>) => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.error).toMatchObject(fields);
    expect((apiError.error as { message: string }).message.length).toBeGreaterThan(10);
  };

  it("a wrong key, an unknown model, another project's model", async () => {
    const wrong = new OpenAI({
      apiKey: "sk_not_a_real_key_000000000000000000000000",
      baseURL: `${live.origin}/v1`,
      maxRetries: 0,
    });
    await expectError(
      wrong.chat.completions.create({ model: "greeter", messages: [{ role: "user", content: "hi" }] }),
      401,
      { type: "authentication_error", code: "invalid_api_key" },
    );
    await expectError(wrong.models.list(), 401, { type: "authentication_error" });
    await expectError(
      client.chat.completions.create({ model: "nobody", messages: [{ role: "user", content: "hi" }] }),
      404,
      { type: "invalid_request_error", code: "model_not_found", param: "model" },
    );
    await expectError(client.responses.create({ model: "greeter@nowhere", input: "hi" }), 404, {
      code: "model_not_found",
      param: "model",
    });
    await expectError(
      client.chat.completions.create({ model: "a@b@c", messages: [{ role: "user", content: "hi" }] }),
      400,
      { code: "invalid_model", param: "model" },
    );
    const other = await app.newProject("other");
    const otherClient = new OpenAI({ apiKey: other.key, baseURL: `${live.origin}/v1`, maxRetries: 0 });
    await expectError(
      otherClient.chat.completions.create({ model: "greeter", messages: [{ role: "user", content: "hi" }] }),
      404,
      { code: "model_not_found" },
    );
    const first = await client.responses.create({ model: "greeter", input: "hi" });
    await expectError(
      otherClient.responses.create({ model: "greeter", input: "hi", previous_response_id: first.id }),
      404,
      { code: "previous_response_not_found", param: "previous_response_id" },
    );
  });

  it("malformed bodies name the parameter", async () => {
    await expectError(client.chat.completions.create({ model: "greeter", messages: [] }), 422, {
      type: "invalid_request_error",
      code: "validation_error",
      param: "messages",
    });
    await expectError(
      client.chat.completions.create({
        model: "greeter",
        messages: [{ role: "user", content: "hi" }],
        temperature: 0.2,
      }),
      422,
      { param: "temperature" },
    );
    await expectError(
      client.chat.completions.create({ model: "greeter", messages: [{ role: "wizard", content: "hi" } as never] }),
      422,
      { param: "messages[0].role" },
    );
    await expectError(
      client.chat.completions.create({
        model: "greeter",
        messages: [
          {
            role: "assistant",
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{oops" } }],
          },
          { role: "tool", tool_call_id: "c", content: "x" },
        ],
      }),
      400,
      { code: "invalid_tool_arguments", param: "messages[0].tool_calls[0].function.arguments" },
    );
    await expectError(
      client.responses.create({ model: "greeter", input: "hi", previous_response_id: "resp_nope" }),
      404,
      { code: "previous_response_not_found" },
    );
    await expectError(
      client.responses.create({ model: "greeter", input: [{ type: "item_reference", id: "msg_1" }] }),
      400,
      { code: "item_reference_not_supported", param: "input[0]" },
    );
    model.script({ kind: "reply", text: "Not kept." });
    const unkept = await client.responses.create({ model: "greeter", input: "hi", store: false });
    expect(unkept.output_text).toBe("Not kept.");
    await expectError(
      client.responses.create({ model: "greeter", input: "again", previous_response_id: unkept.id }),
      404,
      { code: "previous_response_not_found" },
    );
    const raw = await fetch(`${live.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error).toMatchObject({ type: "invalid_request_error" });
    const route = await fetch(`${live.origin}/v1/embeddings`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(route.status).toBe(404);
    expect((await route.json()).error).toMatchObject({ code: "route_not_found" });
    const apiKeyScheme = await fetch(`${live.origin}/v1/models`, { headers: { authorization: `ApiKey ${key}` } });
    expect(apiKeyScheme.status).toBe(200);
  });
});
