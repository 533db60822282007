export { approvalRequest, APPROVAL_REPLIES } from "./approval-request";
export { ApprovalStore, type ToolCallIdentity } from "./approval-store";
export {
  decidePermission,
  ruleMatches,
  type HarnessRules,
  type Permission,
  type PermissionQuestion,
} from "./decide-permission";
export { DENIED_BY_USER, resumeApprovals } from "./resume-approvals";
