import { streamText } from "ai";
import { CURATED_MODELS, PROVIDER_IDS, type AgentTemplate, type ProviderId } from "@/server/agent-template";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { isCustomProvider, isModelConnection, vaultOf } from "@/server/vault";
import { runErrorMessage } from "../run-error-message";
import { languageModel } from "./language-model";
import { resolveConnection } from "./resolve-connection";

/** Long enough for a cold hosted model, short enough that a person waits for the answer. */
const TEST_TIMEOUT_MS = 20_000;

export interface ConnectionTest {
  ok: boolean;
  /** The model the test asked: a custom provider's first model, else the provider's cheapest. */
  model: string;
  ms: number;
  /** Why it failed, in the words a failed turn would use (never the provider's body: it can echo the key). */
  message?: string;
}

/**
 * "Test connection": one tiny streamed generation through exactly the path a run takes (resolution by the
 * connection's slug, the provider package, the egress guard for user-supplied URLs).
 */
export async function testStoredConnection(
  app: AppContext,
  projectId: string,
  secretId: string,
): Promise<ConnectionTest> {
  const vault = vaultOf(app);
  const secret = await vault.get(projectId, secretId);
  if (!isModelConnection(secret))
    throw new BadRequestError(
      `Secret ${secretId} is a plain secret, not a model connection; there is nothing to test`,
      "not_a_connection",
    );
  const model = isCustomProvider(secret.data) ? secret.data.models[0].slug : cheapestModel(secret.provider);
  const llm = {
    provider: secret.provider === "custom" ? undefined : secret.provider,
    model,
    connection: { mode: "managed", slug: secret.slug },
  } as AgentTemplate["llm"];
  const connection = await resolveConnection(llm, { config: app.config, vault, db: app.db, projectId });
  const started = performance.now();
  try {
    // Streamed, as turns are: a server that only streams (as some gateways do) passes too.
    const result = streamText({
      model: languageModel(connection).model,
      prompt: "Reply with the word OK.",
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      // The default handler console.logs the provider's error, whose body can echo the key: the
      // error is read from the stream below and answered, and logged only through the logger.
      onError: () => {},
    });
    for await (const part of result.fullStream) if (part.type === "error") throw part.error;
    return { ok: true, model, ms: Math.round(performance.now() - started) };
  } catch (error) {
    logger.info({ err: error, provider: secret.provider, model }, "connection test failed");
    return {
      ok: false,
      model,
      ms: Math.round(performance.now() - started),
      message: runErrorMessage(error, connection),
    };
  }
}

/** Input plus output list price; a model the price catalog does not list goes last. */
const listPrice = (m: { input_usd_per_mtok?: number; output_usd_per_mtok?: number }) =>
  (m.input_usd_per_mtok ?? Infinity) + (m.output_usd_per_mtok ?? Infinity);

function cheapestModel(provider: string): string {
  const models = (PROVIDER_IDS as string[]).includes(provider) ? CURATED_MODELS[provider as ProviderId] : [];
  const cheapest = [...models].sort((a, b) => listPrice(a) - listPrice(b))[0];
  return cheapest?.id ?? "default";
}
