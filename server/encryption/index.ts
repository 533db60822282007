export { createSecretBox } from "./create-secret-box";
export { verifySecretKey } from "./key-check";
export { loadOrCreateKeyFile } from "./key-file";
export { SecretBox, SecretKeyMismatchError } from "./secret-box";
