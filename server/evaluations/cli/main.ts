/** `npm run eval -- ...`: the CI gate (see docs/evaluations.md, "Gate a deploy from CI"). Exit 0 pass, 1 fail, 2 usage or service error. */
import { parseGateOptions, USAGE, UsageError } from "./gate-options";
import { runGate } from "./run-gate";

try {
  const options = parseGateOptions(process.argv.slice(2), process.env);
  const result = await runGate(options);
  process.stdout.write(`${result.table}\n`);
  for (const reason of result.reasons) process.stderr.write(`FAIL ${reason}\n`);
  process.exit(result.passed ? 0 : 1);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${error instanceof UsageError ? `${USAGE}\n` : ""}`);
  process.exit(2);
}
