import { posix } from "node:path";
import { jsonSchema, tool, type JSONSchema7 } from "ai";
import Ajv from "ajv";
import { BadRequestError } from "@/server/core/errors";
import { capResult } from "../builtin";
import type { ToolFactory } from "../tool-registry";
import { pythonProgram, RESULT_MARKER } from "./python-runner";

const ajv = new Ajv({ strict: false, allErrors: true });

/** Outside /workspace, so scripts are never saved with the session's files. */
const SCRIPT_DIR = "/tmp/code-tools";

/** `FOO-bar` -> `FOO_BAR`: the environment variable a secret named in `secrets` is given as. */
export const secretEnvName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

/**
 * `code` entries: a Python script run by the sandbox's CPython (WebAssembly, inside just-bash; no
 * host process) as `main(**inputs)`, with the arguments checked against `input_schema` first and
 * the named vault secrets set as environment variables for that call only. The return value (or
 * the error) is the tool result; secret values are masked in it, and the arguments and results
 * are all a trace or log ever sees. Node scripts are refused: just-bash's QuickJS `js-exec`
 * needs Node 22 (`node:module` stripTypeScriptTypes) and this service runs on Node 20.
 */
export const codeToolFactory: ToolFactory = async (entry, context) => {
  if (entry.type !== "code") throw new Error(`codeToolFactory got a ${entry.type} entry`);
  if (entry.runtime !== "python") {
    throw new BadRequestError(
      `tools: code tool "${entry.name}" uses runtime "${entry.runtime}"; only "python" runs here (the node runtime needs just-bash's js-exec, which requires Node 22)`,
      "unsupported_tool",
    );
  }
  const sandbox = context.sandbox;
  if (!sandbox) throw new BadRequestError(`tools: code tool "${entry.name}" needs a sandbox, and this run has none`, "unsupported_tool");
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(entry.input_schema as object);
  } catch (error) {
    throw new BadRequestError(`tools: code tool "${entry.name}" has an input_schema that does not compile: ${(error as Error).message}`, "invalid_tool");
  }
  const secrets: Record<string, string> = {};
  for (const name of entry.secrets) {
    const value = await context.secretValue?.(name);
    if (value === undefined) throw new BadRequestError(`tools: code tool "${entry.name}" names secret "${name}", which this project's vault does not hold`, "secret_not_found");
    secrets[secretEnvName(name)] = value;
  }
  const mask = (text: string) => Object.values(secrets).reduce((out, value) => (value ? out.split(value).join("[secret]") : out), text);
  const maxBytes = context.resultMaxBytes ?? 64 * 1024;
  const path = posix.join(SCRIPT_DIR, `${entry.name.replace(/[^A-Za-z0-9_-]/g, "_")}.py`);

  const run = (input: unknown, signal?: AbortSignal): Promise<unknown> =>
    sandbox.serial(async () => {
      if (!validate(input)) throw new Error(`arguments do not match input_schema: ${ajv.errorsText(validate.errors)}`);
      const fs = await sandbox.files();
      await fs.mkdir(SCRIPT_DIR, { recursive: true });
      await fs.writeFile(path, pythonProgram(entry.script));
      try {
        const result = await sandbox.exec(`python3 ${path}`, signal, { env: secrets, stdin: JSON.stringify(input ?? {}) });
        const marker = result.stdout.lastIndexOf(RESULT_MARKER);
        if (result.exitCode !== 0 || marker < 0) {
          throw new Error(capResult(mask(`exit code ${result.exitCode}\n${result.stderr}${result.stdout}`.trimEnd()), maxBytes));
        }
        const value: unknown = JSON.parse(result.stdout.slice(marker + RESULT_MARKER.length));
        const text = mask(JSON.stringify(value));
        return Buffer.byteLength(text) > maxBytes ? capResult(text, maxBytes) : JSON.parse(text);
      } finally {
        await fs.rm(path, { force: true });
        await sandbox.persist();
      }
    });

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
