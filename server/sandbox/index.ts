export { SessionSandbox, type CommandResult, type SandboxOptions, type SeedFile, type WorkspaceSeed } from "./session-sandbox";
export { restoreWorkspace, snapshotWorkspace, WORKSPACE_ROOT, type SnapshotEntry } from "./workspace-snapshot";
export { loadWorkspace, saveWorkspace, type WorkspaceLimits } from "./workspace-store";
export { sandboxBoundary, type SandboxBoundary } from "./sandbox-network";
