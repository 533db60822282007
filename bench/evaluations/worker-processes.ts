import { spawn, type ChildProcess } from "node:child_process";
import { processCpuMs } from "../lib/process-cpu";

export interface WorkerProcesses {
  /** CPU (ms) the worker processes have used so far, together. */
  cpuMs(): number;
  /** SIGTERM, as a deployment stops them: each finishes what it holds and exits. */
  stop(): Promise<void>;
}

/**
 * `count` processes of `npm run worker` (server/boot/worker-main.ts: every background worker, the
 * evaluation worker among them) on the database and provider settings in `env`, as a deployment
 * runs them beside the app; resolves when each has said it is ready.
 */
export async function startWorkerProcesses(count: number, env: Record<string, string>): Promise<WorkerProcesses> {
  const children: ChildProcess[] = [];
  const ready = (child: ChildProcess) =>
    new Promise<void>((resolve, reject) => {
      let log = "";
      let started = false;
      // Past readiness the log is still read and dropped: a pipe that fills up would stall the worker.
      child.stdout!.on("data", (chunk: Buffer) => {
        if (started) return;
        log += chunk.toString();
        if (!log.includes("worker process ready")) return;
        started = true;
        resolve();
      });
      child.once("exit", (code) => reject(new Error(`a worker process exited with ${code} before it was ready`)));
    });
  try {
    for (let i = 0; i < count; i++)
      children.push(
        // The node options of `npm run worker` (package.json).
        spawn(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "server/boot/worker-main.ts"], {
          env: { ...process.env, LOG_LEVEL: "info", ...env },
          stdio: ["ignore", "pipe", "inherit"],
        }),
      );
    await Promise.all(children.map(ready));
  } catch (error) {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    throw error;
  }
  return {
    cpuMs: () => children.reduce((sum, child) => sum + processCpuMs(child.pid!), 0),
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null) return;
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          await exited;
        }),
      );
    },
  };
}
