export { getHealth, type Health } from "./health";
export { systemRoutes } from "./routes";
