import { afterAll, beforeAll, expect, it } from "vitest";
import { chooseArm } from "@/server/versioning";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let model: ScriptedModelServer;
let key: string;
const ids: string[] = [];
let envId: string;

const agent = (text: string) => ({ instructions: { agents_md: text }, llm: { model: "openai/gpt-5-mini" }, tools: [] });

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-split", baseUrl: model.baseUrl } } });
  ({ key } = await t.newProject());
  const created = await t.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug: "splitter", name: "Splitter", data: { parameters: { agent: agent("one") } } } },
  });
  ids.push(created.body.workflow_revision.id);
  const second = await t.call("POST", "/api/workflows/revisions/commit", {
    key,
    body: {
      workflow_revision_commit: {
        workflow_variant_id: created.body.workflow_variant.id,
        data: { parameters: { agent: agent("two") } },
      },
    },
  });
  ids.push(second.body.workflow_revision.id);
  const deployed = await t.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_revision_ref: { id: ids[0] }, environment_ref: { slug: "production" } },
  });
  envId = deployed.body.environment_revision.environment_id;
  const split = await t.call("POST", "/api/environments/revisions/commit", {
    key,
    body: {
      environment_revision_commit: {
        environment_variant_id: deployed.body.environment_revision.environment_variant_id,
        delta: {
          splits: {
            "splitter.revision": [
              { weight: 50, workflow_revision: { id: ids[1] } },
              { weight: 50, workflow_revision: { id: ids[0] } },
            ],
          },
        },
      },
    },
  });
  expect(split.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await model.close();
});

it("an invoke by environment runs the revision its session's hash chooses, says so, and records it on the run", async () => {
  const arms = [
    { weight: 50, id: ids[1] },
    { weight: 50, id: ids[0] },
  ];
  // Four sessions the hash sends to each arm (the environment's id is new each run, so which
  // session goes where is not fixed).
  const sessions: { session: string; expected: string }[] = [];
  for (let k = 0; sessions.length < 8; k++) {
    const session = `conversation-${k}`;
    const expected = chooseArm(arms, `${envId}:splitter.revision`, session).id;
    if (sessions.filter((s) => s.expected === expected).length < 4) sessions.push({ session, expected });
  }
  for (const { session, expected } of sessions) {
    for (let turn = 0; turn < 2; turn++) {
      model.script({ kind: "reply", text: "ok" });
      const res = await t.call("POST", "/services/agent/v0/invoke", {
        key,
        body: {
          session_id: session,
          references: { workflow: { slug: "splitter" }, environment: { slug: "production" } },
          data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get("x-svc-revision-id")).toBe(expected);
      const run = await t.call("GET", `/services/agent/v0/runs/${res.headers.get("x-svc-run-id")}`, { key });
      expect(run.body.run.agent.references.workflow_revision.id).toBe(expected);
      expect(JSON.stringify(model.requests.at(-1)!.body)).toContain(expected === ids[0] ? "one" : "two");
    }
  }

  // X-Svc-Split-Key wins over the session (a key the hash sends to the other arm); a revision
  // reference pins an arm.
  const armOf = (value: string) => chooseArm(arms, `${envId}:splitter.revision`, value).id;
  let splitKey = "user-0";
  for (let n = 1; armOf(splitKey) === armOf("conversation-0"); n++) splitKey = `user-${n}`;
  model.script({ kind: "reply", text: "ok" });
  const keyed = await t.call("POST", "/services/agent/v0/invoke", {
    key,
    headers: { "x-svc-split-key": splitKey },
    body: {
      session_id: "conversation-0",
      references: { workflow: { slug: "splitter" }, environment: { slug: "production" } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    },
  });
  expect(keyed.headers.get("x-svc-revision-id")).toBe(armOf(splitKey));
  model.script({ kind: "reply", text: "ok" });
  const pinned = await t.call("POST", "/services/agent/v0/invoke", {
    key,
    body: {
      references: { workflow_revision: { id: ids[1] }, environment: { slug: "production" } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    },
  });
  expect(pinned.headers.get("x-svc-revision-id")).toBe(ids[1]);
});
