export { MonitorsSection } from "./monitors-section";
export { MonitorsIcon } from "./monitors-icon";
export { monitorDraftPath } from "./monitor-draft";
