import type { Sandbox as RemoteSandbox } from "@daytonaio/sdk";
import type { CommandResult, SandboxFiles } from "../sandbox";

/** Leaves `realpath`'s "nothing there" apart from a failure. */
const MISSING = 3;

/**
 * A Daytona sandbox's files: contents travel through the toolbox's file API (byte for byte),
 * the rest is one shell command each, with coreutils' own semantics.
 */
export function daytonaFiles(remote: RemoteSandbox, run: (command: string) => Promise<CommandResult>): SandboxFiles {
  const must = async (command: string) => {
    const result = await run(command);
    if (result.exitCode !== 0)
      throw new Error(`${result.stdout}${result.stderr}`.trim() || `exit code ${result.exitCode}`);
    return result.stdout;
  };
  return {
    async lookup(path) {
      const result = await run(
        `p=$(realpath -e -- ${quote(path)} 2>/dev/null) || exit ${MISSING}; if [ -d "$p" ]; then printf 'd%s' "$p"; else printf 'f%s' "$p"; fi`,
      );
      if (result.exitCode === MISSING) return null;
      if (result.exitCode !== 0) throw new Error(result.stdout.trim() || `exit code ${result.exitCode}`);
      return { realPath: result.stdout.slice(1), directory: result.stdout.startsWith("d") };
    },
    readFile: async (path) => (await remote.fs.downloadFile(path)).toString("utf8"),
    writeFile: (path, content) => remote.fs.uploadFile(Buffer.from(content, "utf8"), path),
    mkdir: async (path) => void (await must(`mkdir -p -- ${quote(path)}`)),
    remove: async (path) => void (await must(`rm -rf -- ${quote(path)}`)),
    chmod: async (path, mode) => void (await must(`chmod ${mode.toString(8)} -- ${quote(path)}`)),
  };
}

function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
