import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { processCpuMs } from "../lib/process-cpu";

export interface ModelServerProcess {
  baseUrl: string;
  /** Sets the latency of every later reply; resolves once the server has it. */
  setLatency(ms: number): Promise<void>;
  /** CPU (ms) the model server's process has used so far. */
  cpuMs(): number;
  close(): Promise<void>;
}

function nextMessage<T>(child: ChildProcess, accept: (message: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      if (!accept(message)) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`the model server process exited with ${code}`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** Starts model-server-main.ts as a child process (see there) and waits for its address. */
export async function startModelServerProcess(): Promise<ModelServerProcess> {
  const child = fork(fileURLToPath(new URL("./model-server-main.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { baseUrl } = await nextMessage<{ baseUrl?: string }>(child, (m) => typeof m.baseUrl === "string");
  return {
    baseUrl: baseUrl!,
    async setLatency(ms) {
      const acked = nextMessage<{ latencyMs?: number }>(child, (m) => m.latencyMs === ms);
      child.send({ latencyMs: ms });
      await acked;
    },
    cpuMs: () => processCpuMs(child.pid!),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await exited;
    },
  };
}
