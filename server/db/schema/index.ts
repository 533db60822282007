export * from "./tenancy";
