import { expect } from "vitest";
import { loadConfig, type Config } from "@/server/core/config";
import type { NativeEvent } from "@/server/streams";
import { invokeOver, type FormatName, type Observed, type TransportName } from "./invoke-client";
import { serveOnLoopback, serveOverHttp, type RunningServer } from "./http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "./scripted-model-server";
import { createTestApp, type TestApp } from "./test-app";

export interface RunFixtureOptions {
  /** The provider whose key and base URL point at the scripted model server. */
  provider?: "openai" | "anthropic";
  /** The operator's key for that provider (what the key-hiding tests look for). */
  providerKey?: string;
  /**
   * How the app listens: `loopback` is the Next.js route on a socket (serveOnLoopback), `http` the
   * production node:http front (serveOverHttp), which also checks every JSON answer's contract.
   */
  door?: "loopback" | "http";
}

export interface InvokeOptions {
  transport?: TransportName;
  format?: FormatName;
  headers?: Record<string, string>;
  flags?: unknown;
  expectedErrors?: string[];
}

/**
 * What a test of agent runs needs, made once per file: a scripted model server, an app whose
 * provider points at it (no retries, so a scripted failure is seen as is), the app on a real
 * socket and a project with its key. Replaces the same dozen lines of set-up in each run test.
 */
export interface RunFixture {
  app: TestApp;
  model: ScriptedModelServer;
  live: RunningServer;
  key: string;
  projectId: string;
  /** An inline agent template on the fixture's provider, with `overrides` on top. */
  agent(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** One turn through the invoke route, the template inline (SSE, native events unless told). */
  invoke(template: unknown, sessionId: string, messages: unknown[], options?: InvokeOptions): Promise<Observed>;
  /** The native events of a turn that must answer 200. */
  run(template: unknown, sessionId: string, messages: unknown[], options?: InvokeOptions): Promise<NativeEvent[]>;
  close(): Promise<void>;
}

export async function createRunFixture(
  overrides: Partial<Config> = {},
  options: RunFixtureOptions = {},
): Promise<RunFixture> {
  const provider = options.provider ?? "openai";
  const defaults = loadConfig({});
  const model = await startScriptedModelServer();
  let app: TestApp | undefined;
  try {
    app = await createTestApp({
      agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
      ...overrides,
      providerEnv: {
        [provider]: { key: options.providerKey ?? `sk-${provider}-fixture`, baseUrl: model.baseUrl },
        ...overrides.providerEnv,
      },
    });
    const live = await (options.door === "http" ? serveOverHttp(app) : serveOnLoopback(app.handle));
    const { key, projectId } = await app.newProject();
    const opened = app;
    const invoke: RunFixture["invoke"] = (template, sessionId, messages, invokeOptions = {}) =>
      invokeOver(
        live.origin,
        key,
        invokeOptions.transport ?? "sse",
        invokeOptions.format ?? "native",
        {
          session_id: sessionId,
          flags: invokeOptions.flags,
          data: { inputs: { messages }, parameters: { agent: template } },
        },
        { headers: invokeOptions.headers, expectedErrors: invokeOptions.expectedErrors },
      );
    return {
      app,
      model,
      live,
      key,
      projectId,
      agent: (extra = {}) => ({
        llm: provider === "openai" ? { provider, model: "gpt-5-mini" } : { provider, model: "claude-sonnet-4-5" },
        tools: [],
        runner: { permissions: { default: "allow" } },
        ...extra,
      }),
      invoke,
      async run(template, sessionId, messages, invokeOptions) {
        const observed = await invoke(template, sessionId, messages, invokeOptions);
        expect(observed.status, JSON.stringify(observed.batch)).toBe(200);
        return observed.events ?? [];
      },
      async close() {
        await live.close();
        await opened.close();
        await model.close();
      },
    };
  } catch (error) {
    await app?.close();
    await model.close();
    throw error;
  }
}
