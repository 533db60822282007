import { EgressRefusedError, findEgressRefusal, urlRefusal } from "@/server/egress";
import { readAtMost } from "@/server/http/read-body";
import { webhookFetch } from "@/server/webhooks";
import { cancelled } from "./abortable-sleep";
import { EvaluatorFailure, invalidParameter } from "./evaluator-failure";
import type { EvaluatorContext } from "./evaluator-types";
import { CallAborted, withCallLimit } from "./external-call";

/** The most a webhook evaluator may answer, as in the reference implementation. */
export const MAX_REPLY_BYTES = 1024 * 1024;

async function readCapped(response: Response, what: string): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_REPLY_BYTES) throw tooLarge(what, declared);
  if (!response.body) return "";
  const read = await readAtMost(response.body, MAX_REPLY_BYTES);
  if ("tooLarge" in read) throw tooLarge(what, read.tooLarge);
  return read.bytes.toString("utf8");
}

const tooLarge = (what: string, size: number) =>
  new EvaluatorFailure(
    "webhook_reply_too_large",
    `${what} answered with more than ${MAX_REPLY_BYTES} bytes (${size} so far); answer with a small JSON score`,
  );

/**
 * POSTs JSON to a user's URL through the egress guard (https only, private and metadata
 * addresses refused unless EGRESS_ALLOWLIST lets them through, the connection pinned to the
 * checked address), no redirects, a time limit and a 1 MB cap on the answer. Non-2xx answers
 * fail; 429 and 5xx and timeouts are retryable.
 */
export async function postJson(
  ctx: EvaluatorContext,
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number; what: string; parameter: string },
): Promise<string> {
  const refusal = urlRefusal(url, { allowlist: ctx.app.config.egressAllowlist, httpsOnly: true });
  if (refusal) throw invalidParameter(`${options.parameter} ${JSON.stringify(url)} ${refusal}`);
  const fetch = webhookFetch(ctx.app);
  try {
    return await withCallLimit(ctx.signal, options.timeoutMs, async (signal) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { ...options.headers, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        redirect: "manual",
        signal,
      });
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel();
        const retryable = response.status === 429 || response.status >= 500;
        const hint =
          response.status >= 300 && response.status < 400 ? " (redirects are not followed; use the final URL)" : "";
        throw new EvaluatorFailure(
          "webhook_failed",
          `${options.what} answered with status ${response.status}${hint}`,
          retryable,
        );
      }
      return readCapped(response, options.what);
    });
  } catch (error) {
    if (error instanceof EvaluatorFailure) throw error;
    if (ctx.signal.aborted) throw cancelled();
    if (error instanceof CallAborted)
      throw new EvaluatorFailure(
        "webhook_timeout",
        `${options.what} did not answer within ${options.timeoutMs} ms`,
        true,
      );
    const refused = error instanceof EgressRefusedError ? error : findEgressRefusal(error);
    if (refused)
      throw new EvaluatorFailure(
        "webhook_refused",
        `${options.what} is at an address this server does not connect to (${refused.reason}); an operator can allow it with EGRESS_ALLOWLIST`,
      );
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new EvaluatorFailure(
      "webhook_unreachable",
      `${options.what} could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      true,
    );
  }
}
