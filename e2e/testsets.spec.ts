import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { scriptModel } from "./model-script";
import { expectFits, screenshot } from "./screenshot";
import { mutate, traceStored } from "./trpc";
import { actUntilVisible } from "./act-until-visible";
import { hydrated } from "./hydrated";

test.describe.configure({ timeout: 120_000 });

const CSV = 'input,correct_answer\r\nFrance?,Paris\r\nSpain?,Madrid\r\n"Italy, the country?",Rome\r\n';

async function openCreateDialog(page: Page) {
  const dialog = page.getByRole("dialog", { name: "New testset" });
  // The button acts once the page has hydrated.
  await actUntilVisible(
    () =>
      page
        .getByRole("button", { name: /New testset/ })
        .first()
        .click({ timeout: 5_000 }),
    dialog,
  );
  return dialog;
}

const cell = (page: Page, row: number, column: string) => page.getByRole("gridcell", { name: `Row ${row}, ${column}` });

test("testsets: create by CSV import, edit a cell, paste from a spreadsheet, commit, diff two revisions, restore, export", async ({
  page,
}, testInfo) => {
  const name = `Capitals ${Date.now().toString(36)}`;
  await page.goto("/testsets");
  const dialog = await openCreateDialog(page);
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("CSV or JSON file").setInputFiles({
    name: "capitals.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(CSV),
  });
  // The preview says what version 1 will hold before anything is committed.
  await expect(dialog.getByTestId("import-preview")).toContainText("3 rows × 2 columns");
  await expect(dialog.getByTestId("import-preview")).toContainText("Italy, the country?");
  await screenshot(page, testInfo, "testset-create-preview");
  await dialog.getByRole("button", { name: "Create with 3 rows" }).click();
  await expect(page).toHaveURL(/\/testsets\/[0-9a-f-]{36}$/);
  const editorUrl = page.url();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("testset-row")).toHaveCount(3);
  await expect(cell(page, 3, "input")).toHaveText("Italy, the country?");
  await expect(page.getByTestId("row-range")).toHaveText("Rows 1–3 of 3");

  // Edit a cell in place: double click, type, Enter.
  await cell(page, 2, "correct_answer").dblclick();
  const editor = page.getByRole("textbox", { name: "Row 2, correct_answer" });
  await editor.fill("Madrid, Spain");
  await editor.press("Enter");
  await expect(cell(page, 2, "correct_answer")).toHaveText("Madrid, Spain");
  await expect(page.getByTestId("draft-summary")).toHaveText("1 row changed");

  // Typing into a selected cell replaces it, each key after the one before.
  await cell(page, 1, "correct_answer").click();
  await page.keyboard.type("Where");
  await expect(page.getByRole("textbox", { name: "Row 1, correct_answer" })).toHaveValue("Where");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("draft-summary")).toHaveText("1 row changed");

  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const commit = page.getByRole("dialog", { name: "Commit as v2" });
  await expect(commit.getByTestId("commit-summary")).toHaveText("1 row changed");
  await commit.getByLabel(/Message/).fill("Sharper answer for Spain");
  await commit.getByRole("button", { name: "Commit v2" }).click();
  await expect(commit).toBeHidden();
  await expect(page.getByTestId("draft-summary")).toHaveCount(0);

  // Paste two spreadsheet rows (tab-separated) from row 3: row 3 is overwritten, row 4 is added.
  await cell(page, 3, "input").click();
  await cell(page, 3, "input").evaluate((el) => {
    const data = new DataTransfer();
    data.setData("text/plain", "Portugal?\tLisbon\r\nGermany?\tBerlin\r\n");
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId("testset-row")).toHaveCount(4);
  await expect(cell(page, 4, "correct_answer")).toHaveText("Berlin");
  await expect(page.getByTestId("draft-summary")).toHaveText("1 row added · 1 row changed");
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("dialog", { name: "Commit as v3" }).getByRole("button", { name: "Commit v3" }).click();
  await expect(page.getByRole("dialog", { name: "Commit as v3" })).toBeHidden();
  await screenshot(page, testInfo, "testset-editor");

  // History: three commits; compare v1 with v3 row by row and cell by cell.
  await page.getByRole("navigation", { name: "Testset views" }).getByRole("link", { name: "History" }).click();
  const rows = page.getByTestId("revision-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "Sharper answer for Spain" })).toHaveCount(1);
  await page.getByLabel("Select v1 to compare").check();
  await page.getByLabel("Select v3 to compare").check();
  await page.getByRole("link", { name: "Compare v1 → v3" }).click();
  await expect(page).toHaveURL(/\/diff\?from=.+&to=.+/);
  await expect(page.getByTestId("diff-stats")).toContainText("1 added");
  await expect(page.getByTestId("diff-stats")).toContainText("2 changed");
  await expect(page.getByTestId("diff-stats")).toContainText("1 row unchanged");
  const spain = page.getByTestId("row-change").filter({ hasText: "Row 2 changed" });
  await expect(spain).toContainText("correct_answer (changed)");
  await expect(spain.locator("mark")).toHaveText(", Spain");
  await expect(page.getByTestId("row-change").filter({ hasText: "Row 4 added" })).toContainText("Berlin");
  await screenshot(page, testInfo, "testset-diff");

  // Restore v1: committed as v4, history kept.
  await page.getByRole("navigation", { name: "Testset views" }).getByRole("link", { name: "History" }).click();
  await page.getByRole("button", { name: "Restore v1" }).click();
  const restore = page.getByRole("alertdialog", { name: "Restore v1?" });
  await restore.getByRole("button", { name: "Restore as v4" }).click();
  await expect(restore).toBeHidden();
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toHaveAttribute("data-version", "4");
  await expect(rows.first()).toContainText("Latest");
  await screenshot(page, testInfo, "testset-history");

  await page.goto(editorUrl);
  await expect(page.getByTestId("testset-row")).toHaveCount(3);
  await expect(cell(page, 2, "correct_answer")).toHaveText("Madrid");

  // Export: the CSV reads back as the file imported.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  expect(await readFile((await download.path())!, "utf8")).toBe(CSV);

  // The list shows it with its size and version.
  await page.goto("/testsets");
  const listed = page.getByTestId("testset-row").filter({ hasText: name });
  await expect(listed).toContainText("3");
  await expect(listed).toContainText("v4");
});

test("from traffic: a chat turn's trace, the chat turn itself, and two traces at once are added to testsets", async ({
  page,
}, testInfo) => {
  const stamp = Date.now().toString(36);
  const target = await mutate(page.request, "testsets.create", {
    name: `Traffic ${stamp}`,
    testcases: [{ input: "Seed question", correct_answer: "Seed answer" }],
  });
  const agent = await mutate(page.request, "agents.create", { name: `Geography ${stamp}` });
  await page.goto(`/agents/${agent.agent.id}/variants/${agent.variant.id}/chat`);
  await scriptModel({ kind: "reply", text: "The capital of France is Paris." });
  await hydrated(page.getByLabel("Message the agent"));
  await page.getByLabel("Message the agent").fill("Capital of France?");
  await page.getByLabel("Message the agent").press("Enter");
  await expect(page.getByText("The capital of France is Paris.")).toBeVisible();
  const traceLink = page.getByTestId("turn-footer").getByRole("link", { name: /Trace [0-9a-f]{8}/ });
  const traceHref = (await traceLink.getAttribute("href"))!;

  // On the trace page: the run's input, and its answer as the expected answer, edited before adding.
  await page.goto(traceHref);
  await page.getByRole("button", { name: "Add to testset" }).click();
  const add = page.getByRole("dialog", { name: "Add to testset" });
  await add.getByLabel("Testset", { exact: true }).selectOption({ label: `Traffic ${stamp} (1 row, v1)` });
  await expect(add.getByLabel("Input", { exact: true })).toHaveValue("Capital of France?");
  await expect(add.getByLabel("Expected answer (correct_answer)")).toHaveValue("The capital of France is Paris.");
  await add.getByLabel("Expected answer (correct_answer)").fill("Paris");
  await screenshot(page, testInfo, "add-trace-to-testset");
  await add.getByRole("button", { name: "Add to testset" }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText(`Added 1 row to Traffic ${stamp}`)).toBeVisible();

  await page.goto(`/testsets/${target.testset.id}`);
  await expect(page.getByTestId("testset-row")).toHaveCount(2);
  await expect(cell(page, 2, "input")).toHaveText("Capital of France?");
  await expect(cell(page, 2, "correct_answer")).toHaveText("Paris");

  // On the chat turn: a second turn, added to a new testset with the conversation before it.
  await page.goBack();
  await page.goto(`/agents/${agent.agent.id}/variants/${agent.variant.id}/chat`);
  await expect(page.getByText("The capital of France is Paris.")).toBeVisible();
  await scriptModel({ kind: "reply", text: "Madrid." });
  await page.getByLabel("Message the agent").fill("And Spain?");
  await page.getByLabel("Message the agent").press("Enter");
  await expect(page.getByText("Madrid.")).toBeVisible();
  await page.getByTestId("assistant-message").last().getByRole("button", { name: "Add to testset" }).click();
  const fromChat = page.getByRole("dialog", { name: "Add to testset" });
  await fromChat.getByLabel("Testset", { exact: true }).selectOption({ label: "New testset…" });
  await fromChat.getByLabel("Name of the new testset").fill(`Conversations ${stamp}`);
  await expect(fromChat.getByLabel("Conversation (messages)")).toHaveValue(/"content": "And Spain\?"/);
  await expect(fromChat.getByLabel("Expected answer (correct_answer)")).toHaveValue("Madrid.");
  await fromChat.getByRole("button", { name: "Add to testset" }).click();
  await expect(page.getByText(`Added 1 row to Conversations ${stamp}`)).toBeVisible();

  // From the traces list: select the two turns' traces, then add both at once.
  const turns = page.getByTestId("trace-row").filter({ hasText: /Capital of France\?|And Spain\?/ });
  // The list is read once per visit: both turns' traces are in the store before it is opened.
  await traceStored(page.request, "Capital of France?");
  await traceStored(page.request, "And Spain?");
  await page.goto("/traces");
  await expect(turns).toHaveCount(2);
  for (const row of await turns.all()) await row.getByRole("checkbox").check();
  await expect(page.getByTestId("trace-selection")).toContainText("2 traces selected");
  await page.getByTestId("trace-selection").getByRole("button", { name: "Add to testset" }).click();
  const several = page.getByRole("dialog", { name: "Add to testset" });
  await expect(several.getByTestId("new-row")).toHaveCount(2);
  await several.getByLabel("Testset", { exact: true }).selectOption({ label: `Traffic ${stamp} (2 rows, v2)` });
  await several.getByRole("button", { name: "Add to testset" }).click();
  await expect(page.getByText(`Added 2 rows to Traffic ${stamp}`)).toBeVisible();
  const head = await page.request.get(
    `/api/trpc/testsets.get?input=${encodeURIComponent(JSON.stringify({ json: { id: target.testset.id } }))}`,
  );
  const testcases = (await head.json()).result.data.json.revision.data.testcases as { data: Record<string, unknown> }[];
  expect(testcases).toHaveLength(4);
  expect(testcases.map((t) => t.data.correct_answer)).toEqual(
    expect.arrayContaining(["Seed answer", "Paris", "The capital of France is Paris.", "Madrid."]),
  );
});

test("large and wide testsets: 10,000 rows page quickly, a 5,000-character cell and 200 columns keep the layout, at 390 and 1280 px, light and dark", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    input: i === 0 ? "x".repeat(5_000) : `Question ${i + 1}`,
    correct_answer: `Answer ${i + 1}`,
  }));
  const large = await mutate(page.request, "testsets.create", { name: `Large ${stamp}`, testcases: rows });
  const columns = Array.from({ length: 200 }, (_, c) => `column_with_a_long_name_${c + 1}`);
  const wide = await mutate(page.request, "testsets.create", {
    name: `Wide ${stamp} ${"with a very long name that must truncate ".repeat(3)}`,
    testcases: Array.from({ length: 5 }, (_, r) => Object.fromEntries(columns.map((c) => [c, `r${r + 1} ${c}`]))),
  });
  const empty = await mutate(page.request, "testsets.create", { name: `Empty ${stamp}` });

  // Responsiveness: first page after load, then the next page, measured in the browser.
  await page.setViewportSize({ width: 1280, height: 800 });
  const started = Date.now();
  await page.goto(`/testsets/${large.testset.id}`);
  await expect(page.getByTestId("row-range")).toHaveText("Rows 1–50 of 10,000");
  const firstPage = Date.now() - started;
  const next = Date.now();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByTestId("row-range")).toHaveText("Rows 51–100 of 10,000");
  const pageTurn = Date.now() - next;
  await cell(page, 51, "correct_answer").dblclick();
  const typed = Date.now();
  await page.getByRole("textbox", { name: "Row 51, correct_answer" }).fill("Edited");
  await page.getByRole("textbox", { name: "Row 51, correct_answer" }).press("Enter");
  await expect(page.getByTestId("draft-summary")).toHaveText("1 row changed");
  const editAndDiff = Date.now() - typed;
  testInfo.annotations.push({
    type: "benchmark",
    description: `10,000 rows: first page ${firstPage} ms, next page ${pageTurn} ms, edit + draft diff ${editAndDiff} ms`,
  });
  console.info(
    `testsets 10,000 rows: first page ${firstPage} ms, next page ${pageTurn} ms, edit + diff ${editAndDiff} ms`,
  );
  expect(pageTurn).toBeLessThan(2_000);
  expect(editAndDiff).toBeLessThan(3_000);
  await page.getByRole("button", { name: "Discard" }).click();

  const views = [
    { name: "testsets", path: "/testsets" },
    { name: "testset-large", path: `/testsets/${large.testset.id}` },
    { name: "testset-wide", path: `/testsets/${wide.testset.id}` },
    { name: "testset-empty", path: `/testsets/${empty.testset.id}` },
    { name: "testset-history", path: `/testsets/${wide.testset.id}/history` },
    {
      name: "testset-diff",
      path: `/testsets/${large.testset.id}/diff?from=${large.revision.id}&to=${large.revision.id}`,
    },
  ];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    for (const view of views) {
      await page.goto(view.path);
      await page.waitForLoadState("networkidle").catch(() => undefined);
      await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
      await expectFits(page, testInfo, `${view.name}-${width}`);
    }
  }
  // The 5,000-character cell is clamped in the grid, not stretched.
  await page.goto(`/testsets/${large.testset.id}`);
  const longCell = cell(page, 1, "input");
  expect((await longCell.boundingBox())!.height).toBeLessThan(120);
  await expect(page.getByText("This testset is empty")).toHaveCount(0);
  await page.goto(`/testsets/${empty.testset.id}`);
  await expect(page.getByText("This testset is empty")).toBeVisible();
});
