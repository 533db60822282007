export type { CommandResult, ExecOptions, PathInfo, Sandbox, SandboxFiles } from "./sandbox";
export { SessionSandbox, type SandboxOptions } from "./session-sandbox";
export type { SeedFile, WorkspaceSeed } from "./workspace-seed";
export { restoreWorkspace, snapshotWorkspace, WORKSPACE_ROOT, type SnapshotEntry } from "./workspace-snapshot";
export { loadWorkspace, saveWorkspace, type WorkspaceLimits } from "./workspace-store";
export { sandboxBoundary, type SandboxBoundary } from "./sandbox-network";
export { sandboxForSession, type SessionSandboxContext } from "./sandbox-for-session";
export { eraseSessionWorkspaces } from "./erase-workspaces";
