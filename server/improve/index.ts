export * from "./optimize";
export * from "./triage";
