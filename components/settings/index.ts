export { ApiKeysSection } from "./api-keys-section";
