import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { createTestApp, type TestApp } from "../helpers/test-app";

/** The reference's testset file routes (its acceptance tests, test_testsets_files.py), and their errors. */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ key } = await t.newProject("testset-files"));
});
afterAll(() => t.close());

const ROWS = [
  { column1: "data1", column2: "data2", column3: "data3" },
  { column1: "data4", column2: "data5", column3: "data6" },
  { column1: "data4", column2: "data5", column3: "data6" },
];
const csvOf = (rows: Record<string, string>[]) => Papa.unparse(rows);

/** A multipart body as the reference's Python clients send it (requests' `files=` and `data=`). */
async function upload(
  path: string,
  file: { name: string; type: string; text: string } | null,
  fields: Record<string, string>,
) {
  const form = new FormData();
  if (file) form.append("file", new Blob([file.text], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  return t.call("POST", path, {
    key,
    rawBody: await encoded.text(),
    headers: { "content-type": encoded.headers.get("content-type")! },
  });
}
const csvFile = (text: string) => ({ name: "testset.csv", type: "text/csv", text });
const jsonFile = (text: string) => ({ name: "testset.json", type: "application/json", text });

async function simpleTestset(testcases: Record<string, string>[]) {
  const res = await t.call("POST", "/api/simple/testsets/", {
    key,
    body: {
      testset: {
        slug: `files-${Math.random().toString(16).slice(2)}`,
        name: "Testset Name",
        data: { testcases: testcases.map((data) => ({ data })) },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.testset;
}

describe("testset upload", () => {
  it("creates a testset from a CSV file and from a JSON file, with name, description, tags and meta", async () => {
    const fields = {
      file_type: "csv",
      testset_name: "Testset Name",
      testset_description: "This is a testset description.",
      testset_tags: JSON.stringify({ tag1: "value1" }),
      testset_meta: JSON.stringify({ meta1: "value1" }),
    };
    const csv = await upload("/api/simple/testsets/upload", csvFile(csvOf(ROWS)), fields);
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.body.count).toBe(1);
    expect(csv.body.testset).toMatchObject({
      name: "Testset Name",
      description: "This is a testset description.",
      tags: { tag1: "value1" },
      meta: { meta1: "value1" },
    });
    expect(csv.body.testset.data.testcases.map((c: any) => c.data)).toEqual(ROWS);

    const typed = [
      { a: 1, b: { nested: true } },
      { a: 2, b: null },
    ];
    const json = await upload("/api/simple/testsets/upload", jsonFile(JSON.stringify(typed)), {
      file_type: "json",
      testset_name: "J",
    });
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.body.testset.data.testcases.map((c: any) => c.data)).toEqual(typed);
  });

  it("edits a testset from a file (a new revision), and commits a revision from a file on a revision's variant", async () => {
    const testset = await simpleTestset(ROWS);
    const next = [
      ...ROWS.slice(0, 2),
      { column1: "data6", column2: "data5", column3: "data4" },
      { column1: "data6", column2: "data5", column3: "data4" },
    ];
    const edited = await upload(`/api/simple/testsets/${testset.id}/upload`, csvFile(csvOf(next)), {
      file_type: "csv",
      testset_name: "Updated Testset Name",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.testset).toMatchObject({ id: testset.id, name: "Updated Testset Name", version: "2" });
    expect(edited.body.testset.data.testcases).toHaveLength(4);
    // The rows kept keep their testcase ids (ids follow content).
    expect(edited.body.testset.data.testcases[0].id).toBe(testset.data.testcases[0].id);

    const rows = [
      { column1: "alpha", column2: "beta" },
      { column1: "gamma", column2: "delta" },
      { column1: "epsilon", column2: "zeta" },
    ];
    const committed = await upload(
      `/api/testsets/revisions/${testset.revision_id}/upload`,
      jsonFile(JSON.stringify(rows)),
      { file_type: "json" },
    );
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.count).toBe(1);
    expect(committed.body.testset_revision.id).not.toBe(testset.revision_id);
    expect(committed.body.testset_revision.testset_id).toBe(testset.id);
    expect(committed.body.testset_revision.data.testcases).toHaveLength(3);

    const unknown = await upload(
      "/api/testsets/revisions/0190a0a0-0000-7000-8000-000000000000/upload",
      csvFile("column1\ndata1"),
      { file_type: "csv" },
    );
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    const unknownTestset = await upload(
      "/api/simple/testsets/0190a0a0-0000-7000-8000-000000000000/upload",
      csvFile("column1\ndata1"),
      {},
    );
    expect(unknownTestset.status).toBe(404);
  });

  it("refuses a bad file with a 4xx naming the row, and stores nothing", async () => {
    const before = (await t.call("POST", "/api/simple/testsets/query", { key, body: {} })).body.count;
    const cases: [unknown, number, RegExp][] = [
      [await upload("/api/simple/testsets/upload", csvFile("a,b\n1,2\n3,4,5\n"), { testset_name: "x" }), 400, /Row 2/],
      [await upload("/api/simple/testsets/upload", csvFile("a,b\n1,2\n3\n"), { testset_name: "x" }), 400, /Row 2/],
      [
        await upload("/api/simple/testsets/upload", csvFile("a,a\n1,2\n"), { testset_name: "x" }),
        400,
        /names the column/,
      ],
      [
        await upload("/api/simple/testsets/upload", jsonFile('[{"a": 1}, "two"]'), { file_type: "json" }),
        400,
        /Row 2 is not an object/,
      ],
      [await upload("/api/simple/testsets/upload", jsonFile('{"a": 1}'), { file_type: "json" }), 400, /array/],
      [await upload("/api/simple/testsets/upload", jsonFile("[{"), { file_type: "json" }), 400, /not valid JSON/],
      [await upload("/api/simple/testsets/upload", csvFile("a,__tags__\n1,{}\n"), {}), 400, /Row 1: __tags__/],
      [
        await upload("/api/simple/testsets/upload", csvFile("a\n1\n"), { testset_tags: "[1]" }),
        400,
        /testset_tags must be a JSON object/,
      ],
      [await upload("/api/simple/testsets/upload", csvFile("a\n1\n"), { file_type: "xlsx" }), 422, /file_type/],
      [await upload("/api/simple/testsets/upload", null, { testset_name: "no file" }), 422, /file/],
    ];
    for (const [res, status, message] of cases as [any, number, RegExp][]) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    const json = await t.call("POST", "/api/simple/testsets/upload", { key, body: { file: "a" } });
    expect(json.status).toBe(400);
    expect((await t.call("POST", "/api/simple/testsets/query", { key, body: {} })).body.count).toBe(before);
  });
});

describe("testset download", () => {
  it("writes a testset's rows as CSV and as JSON that upload back to the same rows and ids", async () => {
    const rows = [
      { question: 'Say "hi", then stop', answer: "hi" },
      { question: "line\nbreak", answer: "" },
      { question: "a, b", answer: "c" },
    ];
    const testset = await simpleTestset(rows as Record<string, string>[]);
    const csv = await t.call(
      "POST",
      `/api/simple/testsets/${testset.id}/download?file_type=csv&file_name=testset_export.csv`,
      { key },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="testset_export.csv"');
    const parsed = Papa.parse<Record<string, string>>(csv.body, { header: true, skipEmptyLines: true }).data;
    expect(parsed).toHaveLength(3);
    expect(parsed.map((r) => r.__id__)).toEqual(testset.data.testcases.map((c: any) => c.id));
    expect(parsed[0].question).toBe('Say "hi", then stop');
    expect(parsed[1].question).toBe("line\nbreak");

    const json = await t.call("POST", `/api/testsets/revisions/${testset.revision_id}/download?file_type=json`, {
      key,
    });
    expect(json.status).toBe(200);
    expect(json.body).toHaveLength(3);
    expect(json.body[0]).toEqual({ ...rows[0], __id__: testset.data.testcases[0].id });

    // A download uploads back to the same rows, under the same ids.
    const back = await upload(`/api/simple/testsets/${testset.id}/upload`, csvFile(csv.body), { file_type: "csv" });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(
      back.body.testset.data.testcases.map((c: any) => c.data),
      JSON.stringify(back.body.testset.data),
    ).toEqual(rows);
    expect(back.body.testset.data.testcases.map((c: any) => c.id)).toEqual(
      testset.data.testcases.map((c: any) => c.id),
    );

    expect((await t.call("POST", `/api/simple/testsets/${testset.id}/download?file_type=xml`, { key })).status).toBe(
      422,
    );
    expect(
      (
        await t.call("POST", "/api/testsets/revisions/0190a0a0-0000-7000-8000-000000000000/download?file_type=csv", {
          key,
        })
      ).status,
    ).toBe(404);
  });
});
