import { jsonSchema, tool, type JSONSchema7 } from "ai";
import type { SandboxKind } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { MASKED_SECRET, maskSecretValues } from "@/server/core/secret-masking";
import { capResult } from "../cap-result";
import type { ToolFactory } from "../tool-types";
import { describeSchemaErrors, inputSchemaValidator } from "./input-schema-validator";
import type { CodeLimits, CodeRuntime } from "./code-runner";
import { nodeRuntime } from "./node-runner";
import { pythonRuntime } from "./python-runner";
import { sandboxNodeRuntime } from "./sandbox-node-runner";

/** Per sandbox: `node` runs in QuickJS beside the local sandbox, and in the hosted sandbox's own Node.js. */
const RUNTIMES: Record<SandboxKind, Record<"python" | "node", CodeRuntime>> = {
  local: { python: pythonRuntime, node: nodeRuntime },
  daytona_sandbox: { python: pythonRuntime, node: sandboxNodeRuntime },
};

/** Used when the run gives none (unit use); the app passes its configuration. */
const DEFAULT_LIMITS: CodeLimits = { timeoutMs: 30_000, memoryMb: 512 };

/** `FOO-bar` -> `FOO_BAR`: the environment variable a secret named in `secrets` is given as. */
export const secretEnvName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

/**
 * `code` entries, both runtimes: the arguments are checked against `input_schema` first, the
 * named vault secrets are given to that call only (python: environment variables; node: a frozen
 * `process.env`), and main's return value or the error is the tool result. Secret values are
 * masked in both, and the arguments and results are all a trace or log ever sees. Where a script
 * runs (locally CPython or QuickJS, both WebAssembly, never a host process; in a hosted sandbox its
 * own python3 and node) is the runtime's business.
 */
export const codeToolFactory: ToolFactory = async (entry, context) => {
  if (entry.type !== "code") throw new Error(`codeToolFactory got a ${entry.type} entry`);
  const sandbox = context.sandbox;
  const runtime = RUNTIMES[sandbox?.kind ?? "local"][entry.runtime];
  const limits = context.codeLimits ?? DEFAULT_LIMITS;
  const refusal = runtime.refusal?.(limits, sandbox);
  if (refusal) throw new BadRequestError(`tools: code tool "${entry.name}" cannot run: ${refusal}`, "unsupported_tool");
  if (runtime.needsSandbox && !sandbox)
    throw new BadRequestError(
      `tools: code tool "${entry.name}" needs a sandbox, and this run has none`,
      "unsupported_tool",
    );
  let validate: ReturnType<typeof inputSchemaValidator>;
  try {
    validate = inputSchemaValidator(context.projectId, entry.input_schema as object);
  } catch (error) {
    throw new BadRequestError(
      `tools: code tool "${entry.name}" has an input_schema that does not compile: ${(error as Error).message}`,
      "invalid_tool",
    );
  }
  const env: Record<string, string> = {};
  for (const name of entry.secrets) {
    const value = await context.secretValue?.(name);
    if (value === undefined)
      throw new BadRequestError(
        `tools: code tool "${entry.name}" names secret "${name}", which this project's vault does not hold`,
        "secret_not_found",
      );
    env[secretEnvName(name)] = value;
  }
  const mask = (text: string) => maskSecretValues(text, Object.values(env), MASKED_SECRET);
  const maxBytes = context.resultMaxBytes ?? 64 * 1024;

  const run = async (input: unknown, signal?: AbortSignal): Promise<unknown> => {
    if (!validate(input)) throw new Error(`arguments do not match input_schema: ${describeSchemaErrors(validate)}`);
    let value: unknown;
    try {
      value = await runtime.run({ script: entry.script, input, env, limits, signal, sandbox });
    } catch (error) {
      // eslint-disable-next-line preserve-caught-error -- the cause's message holds the unmasked secrets this error exists to hide
      throw new Error(capResult(mask((error as Error).message), maxBytes));
    }
    const text = mask(JSON.stringify(value ?? null));
    return Buffer.byteLength(text) > maxBytes ? capResult(text, maxBytes) : JSON.parse(text);
  };

  return {
    name: entry.name,
    kind: "server",
    run,
    render: entry.render ?? undefined,
    tool: tool({
      description: entry.description ?? undefined,
      inputSchema: jsonSchema(entry.input_schema as JSONSchema7),
      execute: (input, { abortSignal }) => run(input, abortSignal),
    }),
  };
};
