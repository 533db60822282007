export * from "./tenancy";
export * from "./versioning";
export * from "./events";
export * from "./secrets";
export * from "./vault";
