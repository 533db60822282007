export {
  agentPath,
  agentsListPath,
  editorPath,
  switchVariantPath,
  tabOfPath,
  variantTabPath,
  type AgentTab,
  type EditorView,
} from "./agent-paths";
export { AgentLayout } from "./agent-layout";
export { AgentsPage, AgentsPageSkeleton } from "./agents-page";
export { BracesIcon, ChatIcon, FormIcon, PanelRightIcon, TrashIcon, WrenchIcon } from "./icons";
export { guardNavigation, setNavigationGuard, type NavigationGuard } from "./navigation-guard";
export { RouteError } from "./route-error";
export { useDebouncedValue } from "./use-debounced-value";
export { VersionBadge } from "./version-badge";
