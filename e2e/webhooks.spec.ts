import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startWebhookReceiver, type WebhookReceiver } from "../tests/helpers/webhook-receiver";
import { screenshot } from "./screenshot";
import { webhookCertificate } from "./webhook-certificate";

test.describe.configure({ timeout: 90_000 });

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  // A real HTTPS endpoint on loopback; the app trusts its certificate (NODE_EXTRA_CA_CERTS).
  receiver = await startWebhookReceiver(webhookCertificate());
});
test.afterAll(async () => {
  await receiver.close();
});

const signedWith = (secret: string, request: WebhookReceiver["requests"][number]) => {
  const header = String(request.headers["x-service-signature"]);
  const t = /t=(\d+)/.exec(header)?.[1];
  return header.includes(`v1=${createHmac("sha256", secret).update(`${t}.${request.rawBody}`).digest("hex")}`);
};

test("webhooks: create one in the UI (secret shown once), a draft and a saved test delivery to a local HTTPS receiver, every attempt, redeliver, stop and start, edit", async ({
  page,
}, testInfo) => {
  const url = `https://127.0.0.1:${receiver.port}/hooks/e2e`;
  receiver.reply = () => ({ status: 200, body: "received by the e2e receiver" });

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();

  await page.getByRole("button", { name: "New webhook" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  await dialog.getByLabel("Name").fill("Deploy notifier");
  await dialog.getByLabel("Endpoint URL").fill(url);
  // Changes only is the default; every event is a choice, and the picker groups events in words.
  await expect(dialog.getByLabel("Changes: commits, deploys and tests")).toBeChecked();
  await dialog.getByLabel("Only the events I choose").check();
  await expect(dialog.getByTestId("event-picker")).toContainText("a deploy (an environment revision committed)");
  await dialog.getByLabel("webhooks.subscriptions.tested").check();
  // The form as it is, before it is saved.
  await dialog.getByRole("button", { name: "Send test" }).click();
  const draft = dialog.getByTestId("draft-test-result");
  await expect(draft).toContainText("succeeded");
  await expect(draft).toContainText("HTTP 200");
  await expect(draft).toContainText("received by the e2e receiver");
  expect(receiver.requests).toHaveLength(1);
  await screenshot(page, testInfo, "webhook-create");

  await dialog.getByRole("button", { name: "Create webhook" }).click();
  const created = page.getByRole("dialog", { name: "Deploy notifier is subscribed" });
  const secret = await created.getByTestId("webhook-secret").inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  await expect(created.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await screenshot(page, testInfo, "webhook-secret-once");
  await created.getByRole("button", { name: "Done" }).click();
  expect(await page.content()).not.toContain(secret);

  const row = page.getByTestId("webhook-row").filter({ hasText: "Deploy notifier" });
  await expect(row).toContainText("Active");
  await expect(row).toContainText(url);
  await row.getByRole("link", { name: "Deploy notifier" }).click();
  await expect(page).toHaveURL(/\/webhooks\/[0-9a-f-]{36}$/);
  expect(await page.content()).not.toContain(secret);

  // A test delivery to the saved subscription, signed with the secret shown once.
  await page.getByRole("button", { name: "Send test" }).click();
  const delivery = page.getByTestId("delivery-row").first();
  await expect(delivery).toContainText("succeeded");
  await expect(delivery).toContainText("webhooks.subscriptions.tested");
  const details = delivery.getByTestId("delivery-details");
  await expect(details.getByTestId("delivery-attempt")).toHaveCount(1);
  await expect(details.getByTestId("delivery-attempt").first()).toContainText("HTTP 200");
  await expect(details.getByTestId("delivery-attempt").first()).toContainText("received by the e2e receiver");
  await expect(details.getByTestId("delivery-attempt").first()).toContainText(/\d+\sms/);
  expect(receiver.requests).toHaveLength(2);
  expect(receiver.requests[1].path).toBe("/hooks/e2e");
  expect(signedWith(secret, receiver.requests[1])).toBe(true);

  // Redeliver: the same delivery again, a second attempt with its own outcome.
  receiver.reply = () => ({ status: 500, body: "the receiver is down" });
  await details.getByRole("button", { name: "Redeliver" }).click();
  await expect(details.getByTestId("delivery-attempt")).toHaveCount(2);
  await expect(details.getByTestId("delivery-attempt").nth(1)).toContainText("redeliver");
  await expect(details.getByTestId("delivery-attempt").nth(1)).toContainText("HTTP 500");
  await expect(details.getByTestId("delivery-attempt").nth(1)).toContainText("the receiver is down");
  await expect(delivery).toContainText("failed");
  expect(receiver.requests).toHaveLength(3);
  expect(receiver.requests[2].headers["x-service-delivery-id"]).toBe(
    receiver.requests[1].headers["x-service-delivery-id"],
  );
  await screenshot(page, testInfo, "webhook-deliveries");

  // Stop and start; edit keeps the secret.
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByTestId("subscription-state")).toContainText("Stopped");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByTestId("subscription-state")).toContainText("Active");
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Deploy notifier" });
  await edit.getByLabel("Name").fill("Deploy notifier (prod)");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("heading", { name: "Deploy notifier (prod)" })).toBeVisible();
  receiver.reply = () => ({ status: 200, body: "back up" });
  await page.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByTestId("delivery-row")).toHaveCount(2);
  expect(signedWith(secret, receiver.requests.at(-1)!)).toBe(true);
  await screenshot(page, testInfo, "webhook-subscription");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "webhook-subscription-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // At a phone's width the page still fits.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId("delivery-row").first()).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  for (const name of ["Send test", "Stop", "Delete", "Edit"])
    await expect(page.getByRole("button", { name, exact: true })).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, "webhook-subscription-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete, after a confirmation: back to an empty list.
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Deploy notifier (prod)?" });
  await confirm.getByRole("button", { name: "Delete webhook" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByText("No webhooks yet")).toBeVisible();
});
