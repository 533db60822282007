export { authenticateOAuthToken } from "./authenticate-token";
export { authorizationRequest, checkAuthorization, type AuthorizationFacts } from "./authorization-request";
export { baseUrlOf } from "./base-url";
export { oauthRoutes } from "./routes";
export { deleteExpiredOAuthRows } from "./expired-grants";
