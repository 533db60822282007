export { findPlatformOperation, listPlatformTools, PLATFORM_OPERATIONS } from "./platform-catalog";
export { platformToolFactory } from "./platform-tool-factory";
export { operationToWire, type PlatformOperation } from "./platform-operation";
