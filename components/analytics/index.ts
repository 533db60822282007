export { AnalyticsView } from "./analytics-view";
export { SessionsView } from "./sessions-view";
export { SessionView } from "./session-view";
export { UsersView } from "./users-view";
export { DashboardsView } from "./dashboards-view";
export { AnalyticsTabs } from "./analytics-tabs";
