import { describe, expect, it } from "vitest";
import { deploymentMatrix } from "./deployment-matrix";

const deployed = (key: string, name: string | null, revision: string) => ({
  key,
  artifact: { name, slug: key },
  revision,
});

describe("deploymentMatrix", () => {
  it("gives each deployed thing one row, with what every environment runs of it", () => {
    const rows = deploymentMatrix([
      { slug: "development", deployments: [deployed("support", "Support", "v3"), deployed("triage", null, "v1")] },
      { slug: "production", deployments: [deployed("support", "Support", "v2")] },
    ]);
    expect(rows.map((row) => row.key)).toEqual(["support", "triage"]);
    const [support, triage] = rows;
    expect(support.entry.revision).toBe("v3");
    expect(support.cells.get("development")?.revision).toBe("v3");
    expect(support.cells.get("production")?.revision).toBe("v2");
    expect([...triage.cells.keys()]).toEqual(["development"]);
  });

  it("orders rows by name, the slug standing in for a missing name", () => {
    const rows = deploymentMatrix([
      {
        slug: "staging",
        deployments: [
          deployed("zeta", "Alpha agent", "v1"),
          deployed("beta", null, "v1"),
          deployed("a", "Gamma", "v1"),
        ],
      },
    ]);
    expect(rows.map((row) => row.key)).toEqual(["zeta", "beta", "a"]);
  });

  it("is empty when nothing is deployed anywhere", () => {
    expect(deploymentMatrix([{ slug: "production", deployments: [] }])).toEqual([]);
  });
});
