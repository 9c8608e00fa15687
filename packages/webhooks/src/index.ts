export * from "./deliver";
export * from "./schedule";
export * from "./secret-box";
export * from "./sign";
export * from "./ssrf";
export * from "./verify";
