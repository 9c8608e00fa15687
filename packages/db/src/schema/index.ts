export * from "./system";
export * from "./identity";
export * from "./custody";
