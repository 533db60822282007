import { expect } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";
import { drainEvents } from "@/server/events";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

export interface AutomationFixture {
  t: TestApp;
  model: ScriptedModelServer;
  key: string;
  projectId: string;
  revisionId: string;
  /** Sets the app's clock to an instant (every process of the test shares it). */
  setClock(iso: string | Date): void;
  clock(): Date;
  close(): Promise<void>;
}

/** An app whose clock the test sets, a scripted model, a project and a committed agent to run. */
export async function automationFixture(): Promise<AutomationFixture> {
  const model = await startScriptedModelServer();
  model.respondWith(() => ({ kind: "reply", text: "done" }));
  const t = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-automations", baseUrl: model.baseUrl } },
  });
  let now = new Date();
  t.context.now = () => new Date(now);
  const { key, projectId } = await t.newProject("automations");
  const created = await t.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "reporter",
        name: "reporter",
        data: { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } } },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    t,
    model,
    key,
    projectId,
    revisionId: created.body.workflow_revision.id,
    setClock: (at) => {
      now = new Date(at);
    },
    clock: () => new Date(now),
    async close() {
      await t.close();
      await model.close();
    },
  };
}

/**
 * Resolves once every run `app`'s process drives has recorded its end, and the events they wrote
 * are in the table: a run ending is the model's doing, so the test awaits it rather than polling.
 */
export async function runsEnded(app: AppContext): Promise<void> {
  await drivenRunsEnded(app.db);
  await drainEvents(app.db);
}
