export * from "./sign";
export * from "./verify";
