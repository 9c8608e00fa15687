export * from "./system";
