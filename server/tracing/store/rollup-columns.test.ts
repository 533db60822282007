import { getTableColumns } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { spanRollups } from "@/server/db/schema";
import { ROLLUP_COLUMNS, ROLLUP_COST_MAPS, ROLLUP_COUNT_MAPS, ROLLUP_KEY_COLUMNS, ROLLUP_MAPS } from "./rollup-columns";

/** The array type of each SQL type the schema declares. */
const ARRAY_TYPE: Record<string, string> = {
  uuid: "uuid",
  text: "text",
  smallint: "int2",
  bigint: "int8",
  boolean: "bool",
  "double precision": "float8",
  jsonb: "jsonb",
  "timestamp with time zone": "timestamptz",
};

describe("span_rollups' columns", () => {
  it("are the schema's, with its types, and its primary key in order", () => {
    const schema = Object.values(getTableColumns(spanRollups)).map((c) => [c.name, ARRAY_TYPE[c.getSQLType()]]);
    expect([...ROLLUP_COLUMNS].map(([c, t]) => [c, t]).sort()).toEqual(schema.sort());
    const key = getTableConfig(spanRollups).primaryKeys[0].columns.map((c) => c.name);
    expect(ROLLUP_KEY_COLUMNS.map(([c]) => c)).toEqual(key);
  });

  it("class every map as counts or costs", () => {
    expect([...ROLLUP_COUNT_MAPS, ...ROLLUP_COST_MAPS].sort()).toEqual([...ROLLUP_MAPS].sort());
  });
});
