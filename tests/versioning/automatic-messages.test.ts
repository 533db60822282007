import { describe, expect, it } from "vitest";
import { deployMessage, restoreMessage } from "@/server/versioning/automatic-messages";

describe("automatic commit messages name things by name and version, never by id", () => {
  it("restore", () => {
    expect(restoreMessage({ version: 3 })).toBe("Restore v3");
  });

  it("deploy names the agent, and the variant only when it is not the default one", () => {
    expect(deployMessage({ artifact: "Support triage", variant: "default", version: 2 }, "Staging")).toBe(
      "Deploy Support triage v2 to Staging",
    );
    expect(deployMessage({ artifact: "Support triage", variant: "Shorter answers", version: 1 }, "Production")).toBe(
      "Deploy Support triage v1 (Shorter answers) to Production",
    );
  });
});
