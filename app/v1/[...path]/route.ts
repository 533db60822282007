import { getApp } from "@/server/boot";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return (await getApp()).handle(request);
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
