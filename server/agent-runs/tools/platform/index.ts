export { PLATFORM_OPERATIONS } from "./platform-catalog";
export { platformToolFactory } from "./platform-tool-factory";
