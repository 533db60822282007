import path from "node:path";

/** The owner account the accounts spec creates through the UI; every other spec runs signed in as it. */
export const OWNER = { name: "Olivia Owner", email: "owner@example.com", password: "a long owner password" };

/** Read when called: playwright.config.ts sets E2E_DATA_DIR after its imports run. */
export function ownerStatePath(): string {
  return path.join(process.env.E2E_DATA_DIR ?? ".data/e2e", "owner-state.json");
}
