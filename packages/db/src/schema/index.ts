export * from "./system";
export * from "./identity";
export * from "./custody";
export * from "./webhooks";
export * from "./transfers";
export * from "./operators";
export * from "./passkeys";
export * from "./approvals";
