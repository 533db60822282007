export { daytonaBoundary, DAYTONA_MAX_ALLOWLIST, type DaytonaBoundary, type DaytonaNetwork } from "./daytona-boundary";
export { daytonaClient } from "./daytona-client";
export { daytonaExtras, extrasFingerprint, type DaytonaExtras } from "./daytona-extras";
export { DaytonaSandbox, LABELS, sandboxName, type DaytonaSandboxOptions } from "./daytona-sandbox";
