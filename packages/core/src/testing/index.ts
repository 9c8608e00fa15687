export * from "./fixtures";
export * from "./service-deps";
export * from "./transfer-fixtures";
