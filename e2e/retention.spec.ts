import { expect, test } from "@playwright/test";

test("Settings > Data retention: a value is saved, survives a reload, and a bad one is refused in place", async ({
  page,
}) => {
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Data retention" });
  const runs = form.getByLabel("Runs (days)");
  await expect(runs).toBeVisible();
  await expect(runs).toHaveValue("");

  await runs.fill("0");
  await expect(form.getByText("Whole days from 1, or blank for forever")).toBeVisible();
  await expect(form.getByRole("button", { name: "Save retention" })).toBeDisabled();

  await runs.fill("90");
  await form.getByLabel("Events (days)").fill("30");
  await form.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Retention saved")).toBeVisible();

  await page.reload();
  const reloaded = page.getByRole("form", { name: "Data retention" });
  await expect(reloaded.getByLabel("Runs (days)")).toHaveValue("90");
  await expect(reloaded.getByLabel("Events (days)")).toHaveValue("30");
  await expect(reloaded.getByLabel("Traces (days)")).toHaveValue("");

  // Back to keeping everything, so a rerun starts where this one did.
  await reloaded.getByLabel("Runs (days)").fill("");
  await reloaded.getByLabel("Events (days)").fill("");
  await reloaded.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Retention saved").first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("form", { name: "Data retention" }).getByLabel("Runs (days)")).toHaveValue("");
});
