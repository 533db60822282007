export { AppShell } from "./app-shell";
export { PageContainer } from "./page-container";
export { PageHeader } from "./page-header";
