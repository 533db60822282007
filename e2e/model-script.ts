import type { RecordedRequest, Script } from "../tests/helpers/scripted-model-server";
import { modelControlPort } from "./ports";

const control = () => `http://127.0.0.1:${modelControlPort()}`;

/** Replaces the scripted model's replies, and any rules (FIFO, the last one repeats). */
export async function scriptModel(...scripts: Script[]): Promise<void> {
  const response = await fetch(`${control()}/script`, { method: "POST", body: JSON.stringify(scripts) });
  if (response.status !== 204) throw new Error(`The model server refused the script: ${response.status}`);
}

/** Every request the model received so far. */
export async function modelRequests(): Promise<Array<Pick<RecordedRequest, "path" | "body">>> {
  return (await fetch(`${control()}/requests`)).json();
}

/** A reply per kind of request: the first rule whose every `match` string the request contains answers; none falls back to the script. An empty list removes the rules. */
export async function scriptModelByRequest(rules: { match: string[]; script: Script }[]): Promise<void> {
  const response = await fetch(`${control()}/rules`, { method: "POST", body: JSON.stringify(rules) });
  if (response.status !== 204) throw new Error(`The model server refused the rules: ${response.status}`);
}
