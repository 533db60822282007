export { AnalyticsView } from "./analytics-view";
