export * from "./system";
export * from "./identity";
