export { AuthCard } from "./auth-card";
export { InviteView, type InviteFacts } from "./invite-view";
export { LoginView } from "./login-view";
export { postJson } from "./post-json";
