export { mcpDoorRoutes } from "./routes";
export { resourceMetadataUrl } from "./door-auth";
