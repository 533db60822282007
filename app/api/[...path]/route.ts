import { after } from "next/server";
import { getApp } from "@/server/boot";

export const dynamic = "force-dynamic";

/** Work an answer queued runs in `after()` on serverless hosts (WORKERS=after-response), within the function's time. */
async function handle(request: Request): Promise<Response> {
  return (await getApp()).handle(request, after);
}

export {
  handle as GET,
  handle as POST,
  handle as PUT,
  handle as PATCH,
  handle as DELETE,
  handle as HEAD,
  handle as OPTIONS,
};
