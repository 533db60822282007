import { after } from "next/server";
import { nextRouteHandlers } from "@/server/boot";

// Every method goes to the app's router (server/boot/next-route-handlers.ts); Next.js reads
// segment config only from the route file itself, so `dynamic` stays here.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = nextRouteHandlers(after);

export const dynamic = "force-dynamic";
