import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ClaudeSettings } from "./claude-settings";

export interface SessionWorkdir {
  /** Claude Code's working directory: `.claude/settings.json` and `CLAUDE.md`. */
  cwd: string;
  /** Its HOME and CLAUDE_CONFIG_DIR (its transcripts live here). */
  home: string;
  tmp: string;
  remove(): Promise<void>;
}

/**
 * A fresh directory per Claude Code process, under `<DATA_DIR>/external-harness/`, readable by
 * the server's user only. It lives as long as the process: removed when the session is evicted,
 * expires idle, or fails.
 */
export async function createWorkdir(
  dataDir: string,
  files: { settings: ClaudeSettings; instructions: string },
): Promise<SessionWorkdir> {
  const parent = path.resolve(dataDir, "external-harness");
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const root = await mkdtemp(path.join(parent, "s-"));
  const cwd = path.join(root, "work");
  const home = path.join(root, "home");
  const tmp = path.join(root, "tmp");
  await Promise.all([
    mkdir(path.join(cwd, ".claude"), { recursive: true, mode: 0o700 }),
    mkdir(home, { mode: 0o700 }),
    mkdir(tmp, { mode: 0o700 }),
  ]);
  await writeFile(path.join(cwd, ".claude", "settings.json"), `${JSON.stringify(files.settings, null, 2)}\n`, {
    mode: 0o600,
  });
  await writeFile(path.join(cwd, "CLAUDE.md"), files.instructions, { mode: 0o600 });
  return { cwd, home, tmp, remove: () => rm(root, { recursive: true, force: true }) };
}
