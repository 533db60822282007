export * from "./tenancy";
export * from "./versioning";
export * from "./events";
export * from "./sessions";
export * from "./secrets";
export * from "./webhooks";
export * from "./tracing";
export * from "./vault";
