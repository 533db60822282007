import { expect, test } from "@playwright/test";
import { mutate } from "./trpc";

test("start a canary guarded by a monitor from the deploy dialog, see the split and its comparison, and promote it", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const created = await mutate(request, "agents.create", { name: `Canary ${Date.now()}` });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: "Answer in one sentence." } },
    message: "Shorter answers",
  });
  await mutate(request, "agents.deploy", { revisionId: created.revision.id, environment: "staging" });
  const slug = created.agent.slug as string;
  const monitor = await mutate(request, "monitors.create", {
    monitor: {
      name: `Errors of ${slug}`,
      metric: { name: "error_rate" },
      scope: { kind: "revision", value: second.revision.id },
      window_seconds: 300,
      operator: "above",
      threshold: 0.2,
    },
  });

  await page.goto(`/agents/${created.agent.id}/variants/${created.variant.id}/deploy?revision=${second.revision.id}`);
  await page.getByTestId("environment-card-staging").getByRole("button", { name: "Deploy v2 to staging" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Deploy v2 to staging?" });
  await dialog.getByLabel(/Release as a canary/).check();
  await dialog.getByLabel("Share of traffic").fill("10");
  await dialog.getByLabel(/Ramp up to/).check();
  await dialog.getByTestId("canary-monitors").getByLabel(monitor.name).check();
  await dialog.getByRole("button", { name: "Start canary at 10%" }).click();
  await expect(dialog).toBeHidden();

  await page.goto("/environments/staging");
  const card = page.getByTestId("canary-card").filter({ hasText: `${slug}.revision` });
  await expect(card.getByTestId("canary-weight")).toHaveText("10%");
  await expect(card).toContainText("v1");
  await expect(card.getByTestId("canary-ramp")).toContainText("10% → 25% → 50% → 100%");
  await expect(card.getByTestId("canary-guards")).toContainText(`this monitor fires: ${monitor.name}`);
  await expect(card.getByRole("table", { name: "Canary comparison" })).toContainText("(candidate)");
  await expect(card.getByRole("table", { name: "Canary comparison" })).toContainText("(baseline)");

  await card.getByRole("button", { name: "Promote v2" }).click();
  // Asked once more, with the reason the history keeps.
  const confirm = page.getByRole("alertdialog", { name: "Promote v2 to all traffic?" });
  await confirm.getByLabel("Reason (kept in the history)").fill("as good as v1");
  await confirm.getByRole("button", { name: "Promote v2" }).click();
  await expect(card).toHaveCount(0);
  // Running now: v2, put there by the promotion (a deploy in the environment's history).
  const row = page.getByTestId("running-row").filter({ hasText: created.agent.name });
  await expect(row).toContainText("v2");
  await expect(row).toContainText(`Promote canary ${created.agent.name} v2 to all traffic: as good as v1`);
});
