// Prints "label: N passed, N failed, N skipped" per JSON report (vitest or Playwright), then a
// total. Arguments: label=path/to/report.json ...
import fs from "node:fs";

const total = { passed: 0, failed: 0, skipped: 0 };
for (const arg of process.argv.slice(2)) {
  const [label, file] = arg.split("=");
  if (!fs.existsSync(file)) continue;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const c = r.stats
    ? { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped }
    : { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
  for (const k in total) total[k] += c[k];
  console.log(`${label}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
}
console.log(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
