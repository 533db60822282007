import { posix } from "node:path";
import type { SandboxFiles } from "./sandbox";
import { WORKSPACE_ROOT } from "./workspace-snapshot";

/** A file laid in the workspace from the template; `path` is relative to WORKSPACE_ROOT. */
export interface SeedFile {
  path: string;
  content: string;
  mode: number;
}

export interface WorkspaceSeed {
  /** Folders (relative to WORKSPACE_ROOT) the template owns: emptied, then filled with `files`. */
  folders: string[];
  files: SeedFile[];
}

/**
 * The template's files win over the stored workspace: an owned folder is emptied first, so a
 * file removed from the template (or edited in the workspace) does not outlive the turn.
 */
export async function laySeed(files: SandboxFiles, seed: WorkspaceSeed): Promise<void> {
  for (const folder of seed.folders) await files.remove(posix.join(WORKSPACE_ROOT, folder));
  for (const file of seed.files) {
    const path = posix.join(WORKSPACE_ROOT, file.path);
    await files.mkdir(posix.dirname(path));
    await files.writeFile(path, file.content);
    await files.chmod(path, file.mode);
  }
}
