export {
  chartQuery,
  DASHBOARD_METRICS,
  DASHBOARD_RANGES,
  dashboardInputSchema,
  type DashboardChart,
  type DashboardInput,
} from "./dashboard-input";
export { createDashboard, deleteDashboard, getDashboard, listDashboards, replaceDashboard } from "./dashboard-store";
export { dashboardRoutes } from "./routes";
export { dashboardToWire } from "./wire";
