import { execFileSync } from "node:child_process";
import fs from "node:fs";

let ticksPerSecond: number | undefined;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux). Throughput on a
 * shared machine moves with whatever else runs; the CPU a server spends per request moves far
 * less, so benchmarks report both.
 */
export function processCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
