import type { InMemoryFs } from "just-bash";

/** The root every built-in tool and every bash command works in; nothing outside it persists. */
export const WORKSPACE_ROOT = "/workspace";

export type SnapshotEntry =
  | { path: string; kind: "dir"; mode: number }
  | { path: string; kind: "file"; mode: number; base64: string }
  | { path: string; kind: "symlink"; target: string };

/** Files, directories and symlinks under WORKSPACE_ROOT, parents before children. */
export async function snapshotWorkspace(fs: InMemoryFs): Promise<{ entries: SnapshotEntry[]; sizeBytes: number }> {
  const entries: SnapshotEntry[] = [];
  let sizeBytes = 0;
  const paths = fs
    .getAllPaths()
    .filter((path) => path.startsWith(`${WORKSPACE_ROOT}/`))
    .sort();
  for (const path of paths) {
    const stat = await fs.lstat(path);
    if (stat.isSymbolicLink) entries.push({ path, kind: "symlink", target: await fs.readlink(path) });
    else if (stat.isDirectory) entries.push({ path, kind: "dir", mode: stat.mode });
    else {
      const bytes = await fs.readFileBuffer(path);
      sizeBytes += bytes.byteLength;
      entries.push({ path, kind: "file", mode: stat.mode, base64: Buffer.from(bytes).toString("base64") });
    }
  }
  return { entries, sizeBytes };
}

/** Writes a snapshot back into a fresh file system; paths outside WORKSPACE_ROOT are ignored. */
export async function restoreWorkspace(fs: InMemoryFs, entries: SnapshotEntry[]): Promise<void> {
  await fs.mkdir(WORKSPACE_ROOT, { recursive: true });
  for (const entry of entries) {
    if (!entry.path.startsWith(`${WORKSPACE_ROOT}/`) || entry.path.includes("/../")) continue;
    if (entry.kind === "dir") await fs.mkdir(entry.path, { recursive: true });
    else if (entry.kind === "symlink") await fs.symlink(entry.target, entry.path);
    else {
      await fs.writeFile(entry.path, Buffer.from(entry.base64, "base64"));
      await fs.chmod(entry.path, entry.mode);
    }
  }
}
