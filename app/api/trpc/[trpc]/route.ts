import { getApp } from "@/server/boot";
import { handleTRPCRequest } from "@/server/trpc";

// This static segment wins over the REST catch-all `app/api/[...path]`.
export const dynamic = "force-dynamic";

async function handler(req: Request): Promise<Response> {
  const { context } = await getApp();
  return handleTRPCRequest(context, req);
}

export { handler as GET, handler as POST };
