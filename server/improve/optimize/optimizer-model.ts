import { resolveModelName, tracedModelCall } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";

export interface OptimizerCall {
  text: string;
  costUsd: number;
  traceId: string;
}

/**
 * One call of the optimizer's own model, the way the evaluation engine calls a prompt
 * application: the connection resolved like an agent's (a project connection for the provider,
 * else the operator's key), then `tracedModelCall` (the project's controls, pricing, and a trace
 * with agent name `improve-optimizer`, referencing the optimization). A failed call throws: the
 * optimization fails with its message.
 */
export async function callOptimizerModel(
  app: AppContext,
  projectId: string,
  optimizationId: string,
  model: string,
  prompt: { system: string; user: string },
): Promise<OptimizerCall> {
  const connection = await resolveModelName(app, projectId, model);
  const call = await tracedModelCall(app, {
    projectId,
    connection,
    agent: { name: "improve-optimizer", references: { optimization: { id: optimizationId } } },
    harness: "prompt",
    messages: [
      { role: "system", content: prompt.system },
      { role: "user", content: prompt.user },
    ],
    request: { system: prompt.system, messages: [{ role: "user", content: prompt.user }], maxRetries: 2 },
  });
  if (call.failure) throw new Error(`the optimizer model ${model} failed: ${call.failure}`);
  return { text: call.text, costUsd: call.costUsd ?? 0, traceId: call.traceId };
}
