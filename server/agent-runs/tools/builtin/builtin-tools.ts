import { posix } from "node:path";
import type { JSONSchema7 } from "ai";
import type { BuiltinToolName } from "@/server/agent-template";
import type { Sandbox } from "@/server/sandbox";
import { shellQuote, workspacePath } from "./workspace-path";

export interface BuiltinDefinition {
  /** A function when the text depends on the sandbox (what its shell is). */
  description: string | ((sandbox: Sandbox) => string);
  inputSchema: JSONSchema7;
  /** True when the call can change the workspace, so it is saved afterwards. */
  writes: boolean;
  run(sandbox: Sandbox, input: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
}

const str = (description: string): JSONSchema7 => ({ type: "string", description });
const int = (description: string): JSONSchema7 => ({ type: "integer", minimum: 1, description });
const object = (properties: Record<string, JSONSchema7>, required: string[]): JSONSchema7 => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** A command's output as the model reads it; a non-zero exit is a tool error. */
async function command(
  sandbox: Sandbox,
  script: string,
  signal: AbortSignal | undefined,
  { emptyOk }: { emptyOk: boolean },
): Promise<string> {
  const result = await sandbox.exec(script, signal);
  if (result.exitCode !== 0 && !(emptyOk && result.exitCode === 1 && !result.stderr)) {
    throw new Error(`exit code ${result.exitCode}\n${result.stderr}${result.stdout}`.trimEnd());
  }
  return result.stdout || "(no output)";
}

/** The seven built-ins of the core and service harnesses, all confined to the session workspace. */
export const BUILTIN_TOOLS: Record<BuiltinToolName, BuiltinDefinition> = {
  read: {
    description:
      "Read a text file of the workspace. Lines come numbered; offset (1-based line) and limit select a range.",
    inputSchema: object(
      {
        path: str("File path, relative to the workspace."),
        offset: int("First line to show (1-based)."),
        limit: int("Most lines to show."),
      },
      ["path"],
    ),
    writes: false,
    async run(sandbox, input) {
      const fs = await sandbox.files();
      const { path, found } = await workspacePath(fs, String(input.path), { mustExist: true });
      if (found?.directory) throw new Error(`${input.path} is a directory; use ls`);
      const lines = (await fs.readFile(path)).split("\n");
      if (lines.at(-1) === "") lines.pop();
      const offset = typeof input.offset === "number" ? input.offset : 1;
      const limit = typeof input.limit === "number" ? input.limit : 2000;
      const shown = lines.slice(offset - 1, offset - 1 + limit);
      if (!shown.length)
        return lines.length ? `(the file has ${lines.length} lines; offset ${offset} is past the end)` : "(empty file)";
      return shown.map((line, index) => `${String(offset + index).padStart(6)}\t${line}`).join("\n");
    },
  },
  write: {
    description: "Create or overwrite a file of the workspace with the given content; parent folders are created.",
    inputSchema: object(
      { path: str("File path, relative to the workspace."), content: str("The whole new content.") },
      ["path", "content"],
    ),
    writes: true,
    async run(sandbox, input) {
      const fs = await sandbox.files();
      const { path } = await workspacePath(fs, String(input.path), { mustExist: false });
      await fs.mkdir(posix.dirname(path));
      const content = String(input.content);
      await fs.writeFile(path, content);
      return `wrote ${Buffer.byteLength(content)} bytes to ${posix.relative("/workspace", path)}`;
    },
  },
  edit: {
    description:
      "Replace one exact occurrence of old_string with new_string in a workspace file. Fails when old_string is absent or not unique.",
    inputSchema: object(
      {
        path: str("File path, relative to the workspace."),
        old_string: str("Exact text to replace; must occur exactly once."),
        new_string: str("Replacement text."),
      },
      ["path", "old_string", "new_string"],
    ),
    writes: true,
    async run(sandbox, input) {
      const fs = await sandbox.files();
      const { path } = await workspacePath(fs, String(input.path), { mustExist: true });
      const text = await fs.readFile(path);
      const needle = String(input.old_string);
      if (!needle) throw new Error("old_string must not be empty");
      const count = text.split(needle).length - 1;
      if (count === 0) throw new Error(`old_string was not found in ${input.path}`);
      if (count > 1)
        throw new Error(`old_string occurs ${count} times in ${input.path}; include more context so it is unique`);
      await fs.writeFile(
        path,
        text.replace(needle, () => String(input.new_string)),
      );
      return `edited ${input.path}`;
    },
  },
  grep: {
    description: "Search workspace files for a regular expression; prints file:line:text.",
    inputSchema: object(
      {
        pattern: str("Extended regular expression."),
        path: str("File or folder to search (default: the workspace)."),
        glob: str("Only files whose name matches this glob, e.g. *.ts."),
      },
      ["pattern"],
    ),
    writes: false,
    async run(sandbox, input, signal) {
      const fs = await sandbox.files();
      const { path } = await workspacePath(fs, input.path as string | undefined, { mustExist: true });
      const include = typeof input.glob === "string" ? ` --include=${shellQuote(input.glob)}` : "";
      return command(
        sandbox,
        `grep -rnE${include} -e ${shellQuote(String(input.pattern))} ${shellQuote(path)}`,
        signal,
        { emptyOk: true },
      );
    },
  },
  find: {
    description: "List workspace files whose name matches a glob.",
    inputSchema: object(
      { pattern: str("Name glob, e.g. *.md."), path: str("Folder to search (default: the workspace).") },
      ["pattern"],
    ),
    writes: false,
    async run(sandbox, input, signal) {
      const fs = await sandbox.files();
      const { path } = await workspacePath(fs, input.path as string | undefined, { mustExist: true });
      return command(sandbox, `find ${shellQuote(path)} -name ${shellQuote(String(input.pattern))}`, signal, {
        emptyOk: false,
      });
    },
  },
  ls: {
    description: "List a workspace folder.",
    inputSchema: object({ path: str("Folder (default: the workspace).") }, []),
    writes: false,
    async run(sandbox, input, signal) {
      const fs = await sandbox.files();
      const { path } = await workspacePath(fs, input.path as string | undefined, { mustExist: true });
      return command(sandbox, `ls -la ${shellQuote(path)}`, signal, { emptyOk: false });
    },
  },
  bash: {
    description: (sandbox) => `Run a bash command in the workspace (${sandbox.shell}).`,
    inputSchema: object({ command: str("The command line.") }, ["command"]),
    writes: true,
    async run(sandbox, input, signal) {
      const result = await sandbox.exec(String(input.command), signal);
      const output = `${result.stdout}${result.stderr ? `${result.stdout ? "\n" : ""}[stderr]\n${result.stderr}` : ""}`;
      if (result.exitCode !== 0) throw new Error(`exit code ${result.exitCode}\n${output}`.trimEnd());
      return output || "(no output)";
    },
  },
};
