import cronstrue from "cronstrue";

const words = (cron: string) => cronstrue.toString(cron, { verbose: false });

/** An hour field of whole hours and ranges only (`18,19`, `9-11,14`): no `*`, no steps. */
const HOUR_LIST = /^\d{1,2}(-\d{1,2})?(,\d{1,2}(-\d{1,2})?)*$/;

/**
 * A five-field cron in words (cronstrue's, "At 02:30 AM, Monday through Friday"), except where
 * cronstrue's words read as other firings: with a minute field that is not one minute, it names
 * listed hours as instants ("Every minute, at 06:00 PM and 07:00 PM" for `* 18,19 * * *`, which
 * reads as two firings). Those hours are said as the spans they are instead ("Every minute, from
 * 06:00 PM to 07:59 PM"). Pure; the caller has checked the cron.
 */
export function cronInWords(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  const [minute, hour, ...days] = fields;
  const spansHours = fields.length === 5 && !/^\d+$/.test(minute) && HOUR_LIST.test(hour);
  if (!spansHours || !(hour.includes(",") || minute.includes(","))) return words(cron);
  const minutePart = words(`${minute} * * * *`);
  const withDays = words(`${minute} * ${days.join(" ")}`);
  if (!withDays.startsWith(minutePart)) return words(cron);
  const at = (h: number, m: number) => words(`${m} ${h} * * *`).replace(/^At /, "");
  const spans = hourSpans(hour).map(([from, to]) => `from ${at(from, 0)} to ${at(to, 59)}`);
  return `${minutePart}, ${spans.join(" and ")}${withDays.slice(minutePart.length)}`;
}

/** `9-11,12,18,19` -> [[9, 12], [18, 19]]: the listed hours, joined where they touch. */
function hourSpans(field: string): [number, number][] {
  const hours = new Set<number>();
  for (const part of field.split(",")) {
    const [from, to = from] = part.split("-").map(Number);
    for (let h = from; h <= to; h++) hours.add(h);
  }
  const spans: [number, number][] = [];
  for (const h of [...hours].sort((a, b) => a - b)) {
    const last = spans.at(-1);
    if (last && last[1] === h - 1) last[1] = h;
    else spans.push([h, h]);
  }
  return spans;
}
