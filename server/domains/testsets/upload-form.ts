import { BadRequestError, SchemaValidationError } from "@/server/core/errors";
import { readWebBody } from "@/server/http/read-body";
import { TESTSET_FILE_TYPES, parseTestsetFile, type TestsetFileType } from "./testset-files";

/** An uploaded testset file's size limit: the simple API's edit body limit. */
export const MAX_TESTSET_FILE_BYTES = 8 * 1024 * 1024;

export interface TestsetUpload {
  rows: Record<string, unknown>[];
  name?: string;
  description?: string;
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/**
 * A testset upload as the reference's clients send it (multipart/form-data: `file`, `file_type`
 * csv (default) or json, and optional `testset_name`, `testset_description`, `testset_tags` and
 * `testset_meta`, the last two JSON objects), read within the size limit.
 */
export async function readTestsetUpload(request: Request): Promise<TestsetUpload> {
  const raw = await readWebBody(request, MAX_TESTSET_FILE_BYTES);
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data"))
    throw new BadRequestError("Send the file as multipart/form-data (a `file` part)", "bad_request");
  let form: FormData;
  try {
    form = await new Response(raw ? new Uint8Array(raw) : null, { headers: { "content-type": type } }).formData();
  } catch (error) {
    throw new BadRequestError(`The multipart body does not parse: ${(error as Error).message}`, "bad_request");
  }
  const file = form.get("file");
  if (!(file instanceof Blob))
    throw new SchemaValidationError([{ path: "file", message: "required: the testset file" }]);
  const fileType = text(form, "file_type")?.toLowerCase() ?? "csv";
  if (!(TESTSET_FILE_TYPES as readonly string[]).includes(fileType))
    throw new SchemaValidationError([{ path: "file_type", message: "must be csv or json" }]);
  return {
    rows: parseTestsetFile(await file.text(), fileType as TestsetFileType),
    name: text(form, "testset_name"),
    description: text(form, "testset_description"),
    tags: jsonObject(form, "testset_tags"),
    meta: jsonObject(form, "testset_meta"),
  };
}

/** A text field (a part sent as a file, as some clients send `testset_name`, is read as text). */
function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  return typeof value === "string" ? value : undefined;
}

function jsonObject(form: FormData, name: string): Record<string, unknown> | undefined {
  const value = text(form, name);
  if (value === undefined || value === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new BadRequestError(`${name} is not valid JSON: ${(error as Error).message}`, "bad_request");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new BadRequestError(`${name} must be a JSON object`, "bad_request");
  return parsed as Record<string, unknown>;
}
