export { startDevnet, type Devnet, type StartDevnetOptions } from "./start-devnet";
export { startLocalDevnets, type LocalDevnets, type StartLocalDevnetsOptions } from "./start-local-devnets";
export { DevnetNode, TransactionRejection, ExecutionFailure, type DevnetMetrics } from "./chain/node";
export type { DevnetBlock, DevnetReceipt, DevnetLog } from "./chain/types";
export type { FaultSpec, ActiveFaults } from "./faults";
export { DEFAULT_BLOCK_GAS_LIMIT, DEFAULT_COINBASE, DEFAULT_MIN_BASE_FEE, SUGGESTED_PRIORITY_FEE, MAX_NONCE_GAP } from "./config";
export { CLIENT_VERSION } from "./rpc/methods";
