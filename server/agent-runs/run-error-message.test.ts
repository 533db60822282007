import { APICallError, InvalidPromptError } from "ai";
import { expect, it } from "vitest";
import { EgressRefusedError } from "@/server/egress";
import { runErrorMessage } from "./run-error-message";

const connection = {
  provider: "openai",
  model: "gpt-5-mini",
  deployment: "direct" as const,
  label: "the openai connection `work`",
};
const apiError = (statusCode: number) =>
  new APICallError({
    message: "Incorrect API key provided: sk-abc",
    url: "u",
    requestBodyValues: {},
    statusCode,
    responseBody: '{"error":"sk-abc"}',
  });

it("says what failed and what to do, from the status and the label only", () => {
  expect(runErrorMessage(apiError(401), connection)).toBe(
    "The openai connection `work` was rejected by the provider: 401. Check the key.",
  );
  expect(runErrorMessage(apiError(404), connection)).toBe(
    'The openai provider does not know model "gpt-5-mini" (404).',
  );
  expect(runErrorMessage(apiError(429), connection)).toContain("rate limiting");
  expect(runErrorMessage(apiError(503), connection)).toBe(
    'The openai provider failed with status 503 for model "gpt-5-mini"; retry the turn.',
  );
  expect(runErrorMessage(apiError(200), connection)).toContain("was lost before the reply finished");
  expect(runErrorMessage({ type: "server_error", message: "boom" }, connection)).toContain(
    "reported an error in the middle of its reply",
  );
  expect(runErrorMessage(new TypeError("fetch failed"), connection)).toContain("was lost before the reply finished");
  expect(
    runErrorMessage(new InvalidPromptError({ prompt: "", message: "messages must not be empty" }), connection),
  ).toBe("The turn could not be sent to the openai provider: Invalid prompt: messages must not be empty");
  expect(
    runErrorMessage(
      new TypeError("fetch failed", { cause: new EgressRefusedError("127.0.0.1 is a loopback address") }),
      connection,
    ),
  ).toContain("EGRESS_ALLOWLIST");
  for (const status of [401, 404, 429, 503])
    expect(runErrorMessage(apiError(status), connection)).not.toContain("sk-abc");
});

it("a provider never reached says why (DNS, refused, timeout, TLS), not that a connection was lost", () => {
  const socket = (code: string, extra: Record<string, unknown>) => Object.assign(new Error(code), { code, ...extra });
  const unreachable = (cause: Error) =>
    new APICallError({
      message: `Cannot connect to API: ${cause.message}`,
      url: "u",
      requestBodyValues: {},
      cause,
      isRetryable: true,
    });
  expect(runErrorMessage(unreachable(socket("ENOTFOUND", { hostname: "api.example.invalid" })), connection)).toBe(
    'The openai connection `work` could not be reached: the host name "api.example.invalid" does not resolve (DNS failure). Check the base URL and the server\'s network.',
  );
  expect(runErrorMessage(unreachable(socket("ECONNREFUSED", { address: "127.0.0.1", port: 9 })), connection)).toContain(
    "127.0.0.1:9 refused the connection",
  );
  // Retries wrap the last attempt; happy eyeballs wraps each address tried.
  const retried = {
    name: "AI_RetryError",
    lastError: unreachable(new AggregateError([socket("ETIMEDOUT", { address: "10.0.0.1", port: 443 })], "")),
  };
  expect(runErrorMessage(retried, connection)).toContain("connecting to 10.0.0.1:443 timed out");
  expect(runErrorMessage(new TypeError("fetch failed", { cause: socket("ECONNRESET", {}) }), connection)).toContain(
    "was lost before the reply finished",
  );
});
