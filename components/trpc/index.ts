export { TRPCReactProvider, useTRPC, useTRPCClient } from "./trpc-provider";
