export { findPlatformOperation, listPlatformTools, PLATFORM_OPERATIONS } from "./platform-catalog";
export { platformToolFactory } from "./platform-tool-factory";
export { operationToWire, operationWire, type PlatformOperation } from "./platform-operation";
