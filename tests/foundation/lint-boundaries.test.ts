/**
 * The lint rules that know server/'s layers and its tables' owners (scripts/lint/) rule what is
 * added tomorrow: a brand-new area, a folder without index.ts, a query of another area's table.
 * Only the texts below are linted (ESLint's `lintText`; dependency-cruiser on a small temporary
 * tree), never the repository's own files.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);

/** What the test uses of scripts/lint/server-layers.cjs and table-owners.cjs (CommonJS, untyped). */
interface Layers {
  LAYERS: Record<string, string[]>;
  readServerFolders(root: string): string[];
  serverLayers(input: { folders: string[]; hasIndex(folder: string): boolean }): {
    areas: string[];
    problems: string[];
  };
  depcruiseRules(): IForbiddenRuleType[];
}
interface Owners {
  tableOwnersAt(root: string): { tables: { js: string; sql: string; owner?: string; file: string }[] };
}
const layers: Layers = require("../../scripts/lint/server-layers.cjs");
const owners: Owners = require("../../scripts/lint/table-owners.cjs");

/** A folder name no one will create. */
const FRESH = "zz-fresh-area";

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of one rule for `code` linted as if it were at `filePath`. */
async function lint(code: string, filePath: string, rule: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe("a brand-new area is ruled the day its folder exists", () => {
  it("is a feature area when the folder list holds it", () => {
    const folders = [...layers.readServerFolders(root), FRESH];
    const found = layers.serverLayers({ folders, hasIndex: () => true });
    expect(found.areas).toContain(FRESH);
    expect(found.problems).toEqual([]);
  });

  it("server/core importing it is an error (ESLint), by alias or relative path", async () => {
    for (const source of [`@/server/${FRESH}`, `../${FRESH}`]) {
      const messages = await lint(
        `import { x } from "${source}";\nexport const y = x;\n`,
        "server/core/zz-probe.ts",
        "local/server-layers",
      );
      expect(messages).toEqual([expect.stringContaining(`not server/${FRESH}`)]);
    }
  });

  it("another area enters it through its index.ts only, and no area imports the doors above", async () => {
    const past = await lint(
      `import { x } from "@/server/${FRESH}/thing";\nexport const y = x;\n`,
      "server/monitors/zz-probe.ts",
      "local/server-layers",
    );
    expect(past).toEqual([expect.stringContaining(`through its index.ts (\`@/server/${FRESH}\`)`)]);
    const door = await lint(
      `import { x } from "@/server/${FRESH}";\nimport { r } from "@/server/trpc";\nexport const y = [x, r];\n`,
      "server/monitors/zz-probe.ts",
      "local/server-layers",
    );
    expect(door).toEqual([expect.stringContaining("server/trpc sits above the feature areas")]);
  });

  describe("dependency-cruiser's rules, on a temporary tree", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), "lint-boundaries-"));
      const files: Record<string, string> = {
        "server/core/probe.ts": `import { x } from "../${FRESH}/thing";\nexport const y = x;\n`,
        [`server/${FRESH}/thing.ts`]: "export const x = 1;\n",
        [`server/${FRESH}/index.ts`]: 'export { x } from "./thing";\n',
        "server/monitors/probe.ts": `import { x } from "../${FRESH}/thing";\nexport const z = x;\n`,
        "server/monitors/index.ts": `import { x } from "../${FRESH}";\nexport const w = x;\n`,
      };
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), text);
      }
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("reports server/core on the new area and an area past its index, not an area at its door", async () => {
      const result = await cruise(["server"], {
        ruleSet: { forbidden: layers.depcruiseRules() },
        validate: true,
        baseDir: dir,
      });
      if (typeof result.output === "string") throw new Error("expected a cruise result");
      const found = result.output.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
      expect(found).toEqual([
        `areas-meet-at-their-index server/core/probe.ts -> server/${FRESH}/thing.ts`,
        `areas-meet-at-their-index server/monitors/probe.ts -> server/${FRESH}/thing.ts`,
        `foundations-at-the-bottom server/core/probe.ts -> server/${FRESH}/thing.ts`,
      ]);
    });
  });
});

describe("a folder no rule names fails, saying what to do", () => {
  const lower = Object.values(layers.LAYERS).flat();

  it("a feature folder without index.ts", async () => {
    const { problems } = layers.serverLayers({ folders: [...lower, FRESH], hasIndex: () => false });
    expect(problems).toEqual([expect.stringContaining(`Add server/${FRESH}/index.ts`)]);
    const messages = await lint("export const a = 1;\n", `server/${FRESH}/thing.ts`, "local/server-layers");
    expect(messages).toEqual([expect.stringMatching(new RegExp(`^server/${FRESH}/ has no index\\.ts: .*Add server/`))]);
  });

  it("a declared layer without its folder", () => {
    const folders = lower.filter((folder) => folder !== "egress");
    const { problems } = layers.serverLayers({ folders, hasIndex: () => true });
    expect(problems).toEqual([expect.stringContaining("server/egress/ is declared a foundation layer")]);
  });

  it("a schema file that names no area", async () => {
    const text =
      'import { pgTable, text } from "drizzle-orm/pg-core";\nexport const x = pgTable("zz_x", { id: text("id") });\n';
    const messages = await lint(text, "server/db/schema/zz-nobody.ts", "local/area-owns-its-tables");
    expect(messages).toEqual([expect.stringContaining("names no folder of server/")]);
    expect(await lint(text, "server/db/schema/tracing-zz.ts", "local/area-owns-its-tables")).toEqual([]);
  });
});

describe("an area queries only its own tables", () => {
  const rule = "local/area-owns-its-tables";
  const forms = {
    "a table object from the schema": 'import { spans } from "@/server/db/schema";\nexport const t = spans;\n',
    "tables.<x> of the database module": 'import { tables } from "@/server/db";\nexport const t = tables.spans;\n',
    "SQL text in a template":
      'import { sql } from "drizzle-orm";\nexport const q = (p: string) => sql`select count(*) from spans where project_id = ${p}`;\n',
    "SQL text in a string": 'export const q = "DELETE FROM \\"spans\\" WHERE project_id = $1";\n',
  };

  it("knows the owner of a table from its schema file's name", () => {
    const { tables } = owners.tableOwnersAt(root);
    expect(tables.find((t) => t.sql === "spans")?.owner).toBe("tracing");
    expect(tables.find((t) => t.sql === "span_rollups")?.owner).toBe("tracing");
    expect(tables.find((t) => t.sql === "tool_approvals")?.owner).toBe("agent-runs");
    expect(tables.find((t) => t.sql === "projects")?.owner).toBe("auth");
  });

  for (const [form, code] of Object.entries(forms)) {
    it(`is an error in another area, not in the owner: ${form}`, async () => {
      expect(await lint(code, "server/monitors/zz-probe.ts", rule)).toEqual([
        expect.stringMatching(/^`spans` is a table of tracing .*Call a function tracing exports/),
      ]);
      expect(await lint(code, "server/tracing/zz-probe.ts", rule)).toEqual([]);
    });
  }

  it("a type-only import stays, and tests and the composition root are not checked", async () => {
    const typeOnly =
      'import type { spans } from "@/server/db/schema";\nimport { type spanRollups } from "@/server/db/schema";\nexport type T = [typeof spans, typeof spanRollups];\n';
    expect(await lint(typeOnly, "server/monitors/zz-probe.ts", rule)).toEqual([]);
    expect(await lint(forms["a table object from the schema"], "server/monitors/zz-probe.test.ts", rule)).toEqual([]);
    expect(await lint(forms["a table object from the schema"], "server/boot/zz-probe.ts", rule)).toEqual([]);
  });
});
