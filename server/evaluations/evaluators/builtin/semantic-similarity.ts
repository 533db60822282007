import { cosineSimilarity, embedMany } from "ai";
import { EMBEDDING_PROVIDERS, embeddingModel } from "@/server/agent-runs";
import { cancelled } from "../abortable-sleep";
import { EvaluatorFailure } from "../evaluator-failure";
import { correctAnswer, outputText } from "../evaluator-values";
import type { EvaluatorHandler } from "../evaluator-types";
import { CallAborted, withCallLimit } from "../external-call";
import { optionalStringParam, stringParam, thresholdParam } from "../parameters";
import { providerFailure } from "../provider-failure";
import { resolveModel } from "../resolve-model";

export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";
const EMBEDDING_TIMEOUT_MS = 60_000;

/**
 * `auto_semantic_similarity`: the cosine similarity of the embeddings of the output and the
 * expected answer. `embedding_model` is an OpenAI model unless written `provider/model` or a
 * `connection` slug names the project's connection to use (any provider that embeds).
 */
export const semanticSimilarity: EvaluatorHandler = async (call) => {
  const { parameters, ctx } = call;
  const threshold = thresholdParam(parameters);
  const answer = correctAnswer(call);
  const values = [outputText(call.request.outputs), typeof answer === "string" ? answer : JSON.stringify(answer)];
  const slug = optionalStringParam(parameters, "connection");
  const name = stringParam(parameters, "embedding_model", DEFAULT_EMBEDDING_MODEL);
  const connection = await resolveModel(
    ctx,
    slug || name.includes("/") ? name : `openai/${name}`,
    slug,
    "embedding_model",
  );
  const model = embeddingModel(connection);
  if (!model) {
    throw new EvaluatorFailure(
      "invalid_parameters",
      `the ${connection.provider} provider offers no embedding models here; use one of ${EMBEDDING_PROVIDERS.join(", ")} for embedding_model`,
    );
  }
  if (values.some((v) => v.trim() === ""))
    return { outputs: { score: values[0] === values[1] ? 1 : 0, success: values[0] === values[1] } };
  // The project's model_input redaction covers what an embedding model is sent too.
  const redactor = connection.inputRedactor;
  const sent = redactor ? values.map((v) => redactor.text(v)) : values;
  try {
    const result = await withCallLimit(ctx.signal, ctx.timeoutMs ?? EMBEDDING_TIMEOUT_MS, (abortSignal) =>
      embedMany({ model, values: sent, maxRetries: 0, abortSignal }),
    );
    const score = cosineSimilarity(result.embeddings[0], result.embeddings[1]);
    return { outputs: { score, success: score >= threshold }, usage: { promptTokens: result.usage.tokens } };
  } catch (error) {
    if (ctx.signal.aborted) throw cancelled();
    throw providerFailure(
      error,
      connection,
      "the embedding model could not embed the texts",
      error instanceof CallAborted && error.timedOut,
    );
  }
};
