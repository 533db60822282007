import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import { dispatchFirings } from "@/server/automations";
import { loadConfig } from "@/server/core/config";
import { rawQuery } from "@/server/db";
import { drainEvents } from "@/server/events/emit";
import { drainIngestQueue } from "@/server/tracing/ingest/worker";
import { createCaller } from "@/server/trpc/root";
import { createContextFrom } from "@/server/trpc/init";
import { webhookWorker } from "@/server/webhooks";
import { fanOutEvents } from "@/server/webhooks/fan-out";
import { databaseTables, dumpDatabase, findInDump, schemaTables } from "../helpers/database-dump";
import { nativeText } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { createEntity, startWorker, settled } from "../evaluations/eval-fixtures";
import { runsRecorded } from "../helpers/after-runs";
import { allow, subscribe } from "../webhooks/helpers";
import { STORED_TABLES } from "./stored-tables";

// A planted value of each kind, written as a person or a model would; `found` is what must not be
// found anywhere after storage (the distinctive part of each).
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQplantedPEMbody0123456789abcdef\n-----END PRIVATE KEY-----";
const PLANTED = {
  email: "planted.person@example.org",
  phone: "+44 20 7946 0958",
  card: "4111 1111 1111 1111",
  iban: "GB82 WEST 1234 5698 7654 32",
  provider_key: "sk-proj-plantedPlantedPlanted0123456789",
  bearer: "Authorization: Bearer plantedBearerToken0123456789abcdef",
  pem: PEM,
  custom: "ORD-424242",
};
const FOUND = [
  "planted.person@example.org",
  "7946 0958",
  "79460958",
  "4111 1111 1111 1111",
  "4111111111111111",
  "GB82 WEST",
  "GB82WEST",
  "plantedPlantedPlanted0123456789",
  "plantedBearerToken0123456789abcdef",
  "MIIEvQplantedPEMbody0123456789abcdef",
  "ORD-424242",
];
const SAMPLE = Object.entries(PLANTED)
  .map(([kind, value]) => `${kind}: ${value}`)
  .join("\n");
const SETTINGS = {
  kinds: ["email", "phone", "card", "iban", "secret"],
  patterns: [{ name: "order", pattern: "ORD-[0-9]{6}" }],
  model_input: false,
};

let f: RunFixture;
let receiver: WebhookReceiver;
let userId: string;
let worker: { stop(): Promise<void> };
const traceIds: string[] = [];

const notPlanted = (what: string, value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  expect(
    FOUND.filter((v) => text.includes(v)),
    what,
  ).toEqual([]);
};
const userMessage = (text: string) => ({ role: "user", content: text });
/** A call of the OpenAI door through the Next.js door, as an OpenAI client makes it. */
const openAi = async (path: string, body: unknown) => {
  const res = await f.app.handle(
    new Request(`http://localhost/v1/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  traceIds.push(res.headers.get("x-svc-trace-id")!);
  return answer;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  f = await createRunFixture({
    egressAllowlist: allow("localhost"),
    egressCa: [receiver.certificate.cert],
    webhookTimeoutMs: 2_000,
    // Enabled so a turn on it reaches the model_input refusal (no Claude Code process is started).
    externalHarness: { ...loadConfig({}).externalHarness, enabled: true },
  });
  userId = (
    await rawQuery<{ user_id: string }>(
      f.app.context.db,
      "select user_id from api_keys where project_id = $1 limit 1",
      [f.projectId],
    )
  )[0].user_id;
  // Every model request is answered with the sample, in small pieces: each value is split across
  // deltas, so only a redaction of the block's whole text finds it.
  f.model.respondWith(() => ({ kind: "reply", reasoning: SAMPLE, text: SAMPLE, chunks: 23 }));
  const saved = await f.app.call("PUT", "/api/redaction/settings", { key: f.key, body: SETTINGS });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await subscribe({ t: f.app, key: f.key, projectId: f.projectId, userId }, receiver.url());
  worker = startWorker(f.app);
});
afterAll(async () => {
  await worker?.stop();
  await f?.close();
  await receiver?.close();
});

describe("a planted value of each kind is found nowhere after storage", () => {
  it("try it redacts every kind of the sample", async () => {
    const tried = await f.app.call("POST", "/api/redaction/try", { key: f.key, body: { text: SAMPLE } });
    expect(tried.body.redacted).toBe(
      [
        "email: [redacted:email]",
        "phone: [redacted:phone]",
        "card: [redacted:card]",
        "iban: [redacted:iban]",
        "provider_key: [redacted:secret]",
        "bearer: Authorization: [redacted:secret]",
        "pem: [redacted:secret]",
        "custom: [redacted:order]",
      ].join("\n"),
    );
  });

  it("an invoked run: the live stream is the model's, the stored run, its log and its trace are redacted", async () => {
    const events = await f.run(f.agent(), "redaction-invoke", [userMessage(`Remember ${SAMPLE}`)]);
    // The model was sent the values (model_input is off) and the live reader got its answer as is.
    expect(JSON.stringify(f.model.requests.at(-1)!.body)).toContain(PLANTED.email);
    expect(nativeText(events)).toBe(SAMPLE);
    const done = events.find((e) => e.type === "done") as { traceId: string };
    traceIds.push(done.traceId);

    // A stream can end a moment before the run is recorded (a short turn is written whole at its
    // end): the run's end is awaited, then read.
    await runsRecorded(f.app.context);
    const runs = await f.app.call("GET", "/services/agent/v0/runs?session_id=redaction-invoke", { key: f.key });
    expect(runs.body.count).toBe(1);
    const run = await f.app.call("GET", `/services/agent/v0/runs/${runs.body.runs[0].id}`, { key: f.key });
    expect(run.body.run.status).toBe("finished");
    expect(JSON.stringify(run.body)).toContain("[redacted:card]");
    notPlanted("GET /runs/{id}", run.body);
    const replay = await fetch(`${f.live.origin}/services/agent/v0/runs/${runs.body.runs[0].id}/events`, {
      headers: { Authorization: `ApiKey ${f.key}` },
    });
    const replayed = await replay.text();
    expect(replayed).toContain("[redacted:iban]");
    notPlanted("the replayed log", replayed);
  });

  it("a chat with a session: the turn and the stored session are redacted", async () => {
    const agent = await createEntity(f.app, f.key, "workflows", "workflow", {
      slug: "redaction-chat",
      data: { parameters: { agent: f.agent() } },
    });
    const events = await f.run(f.agent(), "redaction-chat-1", [userMessage(`Hi, ${SAMPLE}`)]);
    traceIds.push((events.find((e) => e.type === "done") as { traceId: string }).traceId);
    const caller = createCaller(
      createContextFrom(f.app.context, { principal: { projectId: f.projectId, userId, role: "owner" } }),
    );
    const messages = [
      { id: "u1", role: "user" as const, parts: [{ type: "text", text: `Hi, ${SAMPLE}` }] },
      { id: "a1", role: "assistant" as const, parts: [{ type: "text", text: nativeText(events), state: "done" }] },
    ];
    const saved = await caller.chatSessions.save({ id: "redaction-chat-1", agentId: agent.id, messages });
    notPlanted("the save's answer", saved);
    const reopened = await caller.chatSessions.get({ id: "redaction-chat-1" });
    expect(JSON.stringify(reopened)).toContain("[redacted:email]");
    expect(reopened!.title).toContain("Hi, email: [redacted:email] phone: [redacted:phone] card: [redacted:card]");
    notPlanted("the reopened session", reopened);
  });

  it("with model_input on, the model is sent the redacted text", async () => {
    const saved = await f.app.call("PUT", "/api/redaction/settings", {
      key: f.key,
      body: { ...SETTINGS, model_input: true },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await f.run(f.agent({ instructions: { agents_md: `Never repeat ${PLANTED.custom}.` } }), "redaction-model-input", [
      userMessage(`Remember ${SAMPLE}`),
    ]);
    const sent = JSON.stringify(f.model.requests.at(-1)!.body);
    expect(sent).toContain("[redacted:email]");
    expect(sent).toContain("[redacted:order]");
    notPlanted("the model request", sent);

    const external = await f.invoke(
      {
        instructions: { agents_md: "You answer." },
        llm: { model: "sonnet" },
        harness: { kind: "external_harness" },
        tools: [],
      },
      "redaction-external",
      [userMessage("hi")],
      { expectedErrors: ["unsupported_setting"] },
    );
    expect(external.status).toBe(400);
    await f.app.call("PUT", "/api/redaction/settings", { key: f.key, body: SETTINGS });
  });

  it("client spans through ingest", async () => {
    const traceId = "e".repeat(31) + "1";
    const ingest = await f.app.call("POST", "/api/tracing/spans/ingest", {
      key: f.key,
      body: {
        spans: [
          {
            trace_id: traceId,
            span_id: "f".repeat(16),
            span_name: `call ${PLANTED.email}`,
            start_time: new Date().toISOString(),
            attributes: { ag: { data: { inputs: { prompt: SAMPLE }, outputs: { text: [SAMPLE] } } } },
          },
        ],
      },
    });
    expect(ingest.status).toBe(202);
    traceIds.push(traceId);
  });

  it("an evaluation: the agent's outputs in its results, and results an SDK posts", async () => {
    const testset = await createEntity(f.app, f.key, "testsets", "testset", {
      slug: "harmless",
      data: { testcases: [{ messages: [userMessage("Say it.")], correct_answer: "x" }] },
    });
    const agent = await createEntity(f.app, f.key, "workflows", "workflow", {
      slug: "redaction-eval",
      data: { parameters: { agent: f.agent() } },
    });
    const exact = await createEntity(f.app, f.key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { correct_answer_key: "correct_answer" } },
    });
    const created = await f.app.call("POST", "/api/simple/evaluations/", {
      key: f.key,
      body: {
        evaluation: {
          name: "redaction",
          data: {
            testset_steps: [testset.revision_id],
            application_steps: [agent.revision_id],
            evaluator_steps: { [exact.revision_id]: "auto" },
          },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const done = await settled(f.app, f.key, created.body.evaluation.id);
    expect(done.data.status).toBe("success");
    const results = await f.app.call("POST", "/api/evaluations/results/query", {
      key: f.key,
      body: { result: { run_id: created.body.evaluation.id } },
    });
    const invocation = results.body.results.find((r: any) => r.step_key.startsWith("application-"));
    expect(JSON.stringify(invocation.data.outputs)).toContain("[redacted:phone]");
    notPlanted("the evaluation's results", results.body);
    traceIds.push(invocation.trace_id);

    // An SDK's own results, through the low-level API.
    const scenario = await f.app.call("POST", "/api/evaluations/scenarios/", {
      key: f.key,
      body: { scenarios: [{ run_id: created.body.evaluation.id }] },
    });
    const posted = await f.app.call("POST", "/api/evaluations/results/", {
      key: f.key,
      body: {
        results: [
          {
            run_id: created.body.evaluation.id,
            scenario_id: scenario.body.scenarios[0].id,
            step_key: invocation.step_key,
            status: "success",
            data: { outputs: { answer: SAMPLE } },
          },
        ],
      },
    });
    // A closed run refuses writes; whichever answer, nothing planted is stored or echoed.
    notPlanted("the posted results' answer", posted.body);
  });

  it("/v1/chat/completions: the run it records is redacted", async () => {
    await openAi("chat/completions", { model: "redaction-chat", messages: [userMessage(`Note ${SAMPLE}`)] });
  });

  it("/v1/responses: the stored conversation is redacted, so a continuation sends none back to the model", async () => {
    const first = await openAi("responses", { model: "redaction-chat", input: `Keep ${SAMPLE}` });
    const [stored] = await rawQuery<{ messages: string }>(
      f.app.context.db,
      "select messages::text as messages from openai_responses where project_id = $1",
      [f.projectId],
    );
    expect(stored.messages).toContain("[redacted:card]");
    notPlanted("the stored conversation", stored.messages);

    await openAi("responses", { model: "redaction-chat", input: "Go on.", previous_response_id: first.id });
    // model_input is off: what the model is sent is the stored conversation as redacted, both the
    // caller's planted message and the model's own answer.
    const sent = JSON.stringify(f.model.requests.at(-1)!.body);
    expect(sent).toContain("Go on.");
    expect(sent.match(/\[redacted:email\]/g)?.length).toBe(2);
    notPlanted("the continuation's model request", sent);
  });

  it("commit and deploy messages: the revision keeps them as written, events and their query hold them redacted", async () => {
    const created = await createEntity(f.app, f.key, "workflows", "workflow", {
      slug: "redaction-messages",
      data: { parameters: { agent: f.agent() } },
    });
    const variant = await f.app.call("GET", `/api/workflows/revisions/${created.revision_id}`, { key: f.key });
    const committed = await f.app.call("POST", "/api/workflows/revisions/commit", {
      key: f.key,
      body: {
        workflow_revision_commit: {
          workflow_variant_id: variant.body.workflow_revision.workflow_variant_id,
          message: `Fixed for ${PLANTED.email}, ${PLANTED.custom}`,
          data: { parameters: { agent: f.agent({ instructions: { agents_md: "v2" } }) } },
        },
      },
    });
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    const deployed = await f.app.call("POST", "/api/workflows/revisions/deploy", {
      key: f.key,
      body: {
        workflow_revision_ref: { id: committed.body.workflow_revision.id },
        environment_ref: { slug: "production" },
        message: `Ship it, card ${PLANTED.card}`,
      },
    });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    // The revision is configuration a person wrote: its log shows the message as typed.
    expect(committed.body.workflow_revision.message).toContain(PLANTED.email);

    const messages = async (eventType: string) => {
      const res = await f.app.call("POST", "/api/events/query", { key: f.key, body: { event_type: eventType } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.events.map((e: { attributes: { message?: string } }) => e.attributes.message);
    };
    const commitMessages = await messages("workflows.revisions.committed");
    expect(commitMessages).toContain("Fixed for [redacted:email], [redacted:order]");
    const deployMessages = await messages("environments.revisions.committed");
    expect(deployMessages).toContain("Ship it, card [redacted:card]");
    notPlanted("the events query", [commitMessages, deployMessages]);
  });

  it("an inbound trigger: the run gets the payload as sent; once it started the stored firing holds it redacted", async () => {
    const workflow = await createEntity(f.app, f.key, "workflows", "workflow", {
      slug: "planted-trigger",
      data: { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } } },
    });
    const created = await f.app.call("POST", "/api/automations/", {
      key: f.key,
      body: {
        automation: {
          kind: "inbound",
          name: "planted inbound",
          signature_scheme: "standard_webhooks",
          references: { workflow_revision: { id: workflow.revision_id } },
          input: { messages: [{ role: "user", content: "Ticket from {{ customer }}" }] },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { inbound_path: path, secret } = created.body.automation;
    const body = JSON.stringify({ customer: PLANTED.email, note: SAMPLE });
    const now = new Date();
    const accepted = await f.app.call("POST", path, {
      rawBody: body,
      headers: {
        "content-type": "application/json",
        "webhook-id": "planted-1",
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign("planted-1", now, body),
      },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    await dispatchFirings(f.app.context, 10);
    await drivenRunsEnded(f.app.context.db);
    const delivery = await f.app.call("GET", `/api/automations/deliveries/${accepted.body.delivery_id}`, {
      key: f.key,
    });
    expect(delivery.body.delivery.status, JSON.stringify(delivery.body)).toBe("started");
    const run = await f.app.call("GET", `/services/agent/v0/runs/${delivery.body.delivery.run_id}`, { key: f.key });
    expect(run.body.run.status, JSON.stringify(run.body)).toBe("finished");
    // model_input is off: the model was asked about the customer as the sender named them.
    expect(JSON.stringify(f.model.requests.map((r) => r.body))).toContain(`Ticket from ${PLANTED.email}`);
    expect(delivery.body.delivery.payload.customer).toBe("[redacted:email]");
    notPlanted("the firing", delivery.body);
  });

  it("a testset's cells are kept as written; an annotation is stored redacted; a provider key is sealed", async () => {
    const testset = await createEntity(f.app, f.key, "testsets", "testset", {
      slug: "planted-cells",
      data: { testcases: [{ messages: [userMessage(SAMPLE)], correct_answer: PLANTED.iban }] },
    });
    expect(testset.revision_id).toBeTruthy();
    const annotation = await f.app.call("POST", "/api/simple/traces/", {
      key: f.key,
      body: {
        trace: {
          origin: "human",
          kind: "adhoc",
          channel: "api",
          data: { outputs: { note: SAMPLE } },
          references: { evaluator: { slug: "user-feedback" } },
        },
      },
    });
    expect(annotation.status, JSON.stringify(annotation.body)).toBe(202);
    traceIds.push(annotation.body.trace.trace_id);
    const sealed = await f.app.call("POST", "/api/vault/v1/secrets/", {
      key: f.key,
      body: {
        header: { name: "Planted" },
        secret: { kind: "provider_key", data: { kind: "openai", provider: { key: PLANTED.provider_key } } },
      },
    });
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
    notPlanted("the vault's answer", sealed.body);
  });

  it("traces, webhook payloads and every table of the schema hold none of them, but where kept as written", async () => {
    await drainIngestQueue(f.app.context);
    for (const traceId of traceIds) {
      const trace = await f.app
        .handle(
          new Request(`http://localhost/api/traces/${traceId}`, { headers: { authorization: `ApiKey ${f.key}` } }),
        )
        .then((res) => res.json());
      expect(trace.count, traceId).toBe(1);
      notPlanted(`trace ${traceId}`, trace);
    }
    await drainEvents(f.app.context.db);
    while ((await fanOutEvents(f.app.context.db)).events > 0);
    await webhookWorker.drain(f.app.context, 1_000);
    const deliveries = await rawQuery<{ payload: string }>(f.app.context.db, "select payload from webhook_deliveries");
    expect(deliveries.length).toBeGreaterThan(0);
    for (const { payload } of deliveries) notPlanted("a webhook payload", payload);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) notPlanted("a delivered webhook", request.rawBody);

    // Every table the schema declares is placed in STORED_TABLES, and the database holds no other.
    const schema = schemaTables();
    expect(
      Object.keys(STORED_TABLES).sort(),
      "tests/redaction/stored-tables.ts names each table of the schema",
    ).toEqual(schema);
    const rows = await databaseTables(f.app.context.db);
    expect([...rows.keys()].filter((table) => !schema.includes(table))).toEqual([]);
    const place = (table: string) => Object.keys(STORED_TABLES[table])[0];
    const unwritten = schema.filter((table) => place(table) !== "notWritten" && !rows.get(table));
    expect(unwritten, "tables the traffic above must write").toEqual([]);

    const dump = await dumpDatabase(f.app.context.db);
    expect(dump.some((c) => c.text.includes("[redacted:secret]"))).toBe(true);
    const found = findInDump(dump, FOUND);
    const keptAsWritten = schema.filter((table) => place(table) === "keptAsWritten");
    expect(found.filter((hit) => !keptAsWritten.includes(hit.split(".")[0]))).toEqual([]);
    // The scan's own proof: each table kept as written holds the values planted there.
    for (const table of keptAsWritten)
      expect(
        found.some((hit) => hit.startsWith(`${table}.`)),
        table,
      ).toBe(true);
  });
});
