export { ApiKeysSection } from "./api-keys-section";
export { MembersSection } from "./members-section";
