import { posix } from "node:path";
import { WORKSPACE_ROOT, type PathInfo, type SandboxFiles } from "@/server/sandbox";

/**
 * A tool's path argument as an absolute path inside the workspace, with what is there (null:
 * nothing yet). Relative paths start at the workspace root; anything that resolves outside it
 * (`../..`, `/etc/passwd`, a symlink pointing out) is refused, so tools keep to the one folder
 * that persists.
 */
export async function workspacePath(
  files: SandboxFiles,
  raw: string | undefined,
  options: { mustExist: boolean },
): Promise<{ path: string; found: PathInfo | null }> {
  const path = posix.resolve(WORKSPACE_ROOT, raw ?? ".");
  if (!inside(path)) throw new Error(`path "${raw}" is outside the workspace ${WORKSPACE_ROOT}`);
  const found = await files.lookup(path);
  if (found && !inside(found.realPath)) throw new Error(`path "${raw}" leads outside the workspace ${WORKSPACE_ROOT}`);
  if (!found && options.mustExist) throw new Error(`no such file or directory: ${raw}`);
  return { path, found };
}

function inside(path: string): boolean {
  return path === WORKSPACE_ROOT || path.startsWith(`${WORKSPACE_ROOT}/`);
}

/** Single-quotes a value for the sandbox's bash. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
