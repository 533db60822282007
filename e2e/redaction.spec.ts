import { expect, test } from "@playwright/test";
import { mutate } from "./trpc";

const SAMPLE = "Reach planted.person@example.org, card 4111 1111 1111 1111, order ORD-424242";

test("redaction, turned on by an owner's key: Settings lists the rules, the try-it box shows what a sample becomes, and the audit log has the change", async ({
  page,
  request,
}) => {
  const keyName = `e2e redaction ${Date.now()}`;
  const key = await mutate<{ id: string; key: string }>(request, "apiKeys.create", { name: keyName });
  const saved = await request.put("/api/redaction/settings", {
    headers: { authorization: `ApiKey ${key.key}` },
    data: { kinds: ["email", "card"], patterns: [{ name: "order", pattern: "ORD-[0-9]{6}" }], model_input: false },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Redaction" });
  await expect(section.getByTestId("redaction-rules")).toHaveText("Redacting: email, card, order.");
  await section.getByLabel("Try it").fill(SAMPLE);
  await section.getByRole("button", { name: "Show what is stored" }).click();
  await expect(section.getByTestId("redaction-result")).toHaveText(
    "Reach [redacted:email], card [redacted:card], order [redacted:order]",
  );

  const audit = page.getByRole("region", { name: "Audit log" });
  await audit.getByLabel("Filter by action").fill("redaction_settings.updated");
  const entry = audit.getByTestId("audit-entry").filter({ hasText: `key ${keyName}` });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("redaction_settings.updated");
  await expect(entry).toContainText("redaction_settings");

  // Off again, so the other specs' traces are stored as they write them.
  const off = await request.put("/api/redaction/settings", {
    headers: { authorization: `ApiKey ${key.key}` },
    data: { kinds: [], patterns: [], model_input: false },
  });
  expect(off.status()).toBe(200);
  await mutate(request, "apiKeys.revoke", { id: key.id });
});
