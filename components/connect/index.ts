export { ConnectPanel } from "./connect-panel";
export { ProjectConnect } from "./project-connect";
