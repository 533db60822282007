import { expect, it } from "vitest";
import { firingBody, firingGivenInputs } from "./firing-body";

const firedAt = new Date("2031-03-04T09:00:05.000Z");
const firing = (input: Record<string, unknown>) => ({
  automation: { id: "a1", name: "nightly", kind: "schedule", target: { references: {} }, input },
  firing: { id: "f1", payload: { scheduled_at: "2031-03-04T09:00:00.000Z" }, eventKey: "schedule:x" },
  firedAt,
});

it("records what a firing gave its target: an agent's filled messages, an application's inputs, a selector's result", () => {
  const messages = firing({ messages: [{ role: "user", content: "report for {{ scheduled_at }}" }] });
  expect(firingGivenInputs(messages, false)).toEqual({
    messages: [{ role: "user", content: "report for 2031-03-04T09:00:00.000Z" }],
  });
  // The same messages the run is started with.
  expect(firingBody(messages).data?.inputs).toEqual(firingGivenInputs(messages, false));
  expect(firingGivenInputs(firing({ inputs: { day: "{{ scheduled_at }}", n: 3 } }), true)).toEqual({
    day: "2031-03-04T09:00:00.000Z",
    n: 3,
  });
  const selector = firing({ fields: { tick: "$.event.attributes.timestamp", name: "/subscription/name" } });
  expect(firingGivenInputs(selector, false)).toEqual({ tick: "2031-03-04T09:00:00.000Z", name: "nightly" });
  expect(firingGivenInputs(selector, true)).toEqual(firingGivenInputs(selector, false));
  // An unset label is absent from the context, as in the reference's: no match, null.
  const labels = firing({ fields: { tags: "$.subscription.tags", keys: "$.subscription" } });
  const { tags, keys } = firingGivenInputs(labels, false) as { tags: unknown; keys: object };
  expect(tags).toBeNull();
  expect(keys).not.toHaveProperty("tags");
  expect(keys).not.toHaveProperty("meta");
});
