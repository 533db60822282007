import { RESULT_MARKER, sandboxProgram } from "./sandbox-program";

/** The script (CommonJS), then `main(inputs)` with stdin's JSON, its return value printed as JSON after the marker. */
export function nodeProgram(script: string): string {
  return `${script}
;(async () => {
  const _svcInputs = JSON.parse(require("node:fs").readFileSync(0, "utf8") || "{}");
  if (typeof main !== "function") throw new TypeError("the script defines no function main(inputs)");
  const _svcValue = await main(_svcInputs);
  const _svcJson = JSON.stringify(_svcValue === undefined ? null : _svcValue);
  if (_svcJson === undefined) throw new TypeError("main returned a value JSON cannot represent");
  process.stdout.write(${JSON.stringify(RESULT_MARKER)} + _svcJson);
})().catch((error) => {
  console.error(error && error.stack ? error.stack : String(error));
  process.exitCode = 1;
});
`;
}

/**
 * `node` code tools in a hosted sandbox: the sandbox's own Node.js, its heap capped by V8's flag
 * (a virtual-memory `ulimit` would stop V8 at start-up, which reserves far more than it uses).
 */
export const sandboxNodeRuntime = sandboxProgram({
  extension: ".cjs",
  program: nodeProgram,
  command: (path, limits) => `node --max-old-space-size=${limits.memoryMb} ${path}`,
  memoryByExec: false,
  cause: (output) =>
    /heap out of memory/.test(output)
      ? "stopped: the script went over its memory cap (CODE_TOOL_MEMORY_MB)\n"
      : undefined,
});
