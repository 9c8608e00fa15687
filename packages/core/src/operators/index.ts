// The operators' console: its own accounts and sessions, and what it shows of the job queues
// and the daemons (the same figures as GET /metrics).
export * from "./operator-session";
export * from "./create-operator";
export * from "./log-in-operator";
export * from "./authenticate-operator";
export * from "./log-out-operator";
export * from "./read-queue-overview";
export * from "./list-daemon-instances";
export * from "./list-failed-jobs";
export * from "./retry-failed-job";
export * from "./cancel-job";
