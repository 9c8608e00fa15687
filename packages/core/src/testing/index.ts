export * from "./fixtures";
