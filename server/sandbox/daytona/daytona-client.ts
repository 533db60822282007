import { createHash } from "node:crypto";
import { Daytona } from "@daytonaio/sdk";
import type { DaytonaSettings } from "@/server/core/config";

const clients = new Map<string, Daytona>();

/**
 * One SDK client per API, target and key. State changes are polled rather than streamed: the
 * service waits on a sandbox's state only when it creates, starts or recovers one, and polling
 * keeps no socket open to Daytona's event gateway from every app process.
 */
export function daytonaClient(settings: DaytonaSettings): Daytona {
  const key = [settings.apiUrl, settings.target ?? "", createHash("sha256").update(settings.apiKey).digest("hex")].join(
    "\n",
  );
  let client = clients.get(key);
  if (!client) {
    client = new Daytona({
      apiKey: settings.apiKey,
      apiUrl: settings.apiUrl,
      target: settings.target,
      useDeprecatedPolling: true,
    });
    clients.set(key, client);
  }
  return client;
}
