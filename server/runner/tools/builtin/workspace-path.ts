import { posix } from "node:path";
import type { InMemoryFs } from "just-bash";
import { WORKSPACE_ROOT } from "@/server/sandbox";

/**
 * A tool's path argument as an absolute path inside the workspace. Relative paths start at the
 * workspace root; anything that resolves outside it (`../..`, `/etc/passwd`, a symlink pointing
 * out) is refused. The file system is virtual either way: this keeps tools to the one folder
 * that persists.
 */
export async function workspacePath(fs: InMemoryFs, raw: string | undefined, options: { mustExist: boolean }): Promise<string> {
  const path = posix.resolve(WORKSPACE_ROOT, raw ?? ".");
  if (!inside(path)) throw new Error(`path "${raw}" is outside the workspace ${WORKSPACE_ROOT}`);
  if (await fs.exists(path)) {
    const real = await fs.realpath(path);
    if (!inside(real)) throw new Error(`path "${raw}" leads outside the workspace ${WORKSPACE_ROOT}`);
  } else if (options.mustExist) {
    throw new Error(`no such file or directory: ${raw}`);
  }
  return path;
}

function inside(path: string): boolean {
  return path === WORKSPACE_ROOT || path.startsWith(`${WORKSPACE_ROOT}/`);
}

/** Single-quotes a value for the sandbox's bash. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
