import type { TRANSACTION_STATUSES } from "@qc/domain";
import type { NetworkCode, Scope, TransactionStatus, WebhookEventType } from "./router-types";

/**
 * The contract's names the dashboard offers in filters and forms. The transaction lifecycle comes
 * from @qc/domain, which has no dependency and so may be bundled into a page. Client code cannot
 * import the service's other packages (they are server-only), so the other lists are spelled out
 * here; the types below fail to compile if a list misses a name or adds one the routers do not
 * know, and vocabulary.test.ts compares them with the service's own lists.
 */
export const NETWORKS = ["QUANTUM_SANDBOX", "QUANTUM_MAINNET"] as const satisfies readonly NetworkCode[];
export const NETWORK_NAMES: Record<NetworkCode, string> = { QUANTUM_SANDBOX: "QUANTUM_SANDBOX (chain 20804)", QUANTUM_MAINNET: "QUANTUM_MAINNET (chain 20803)" };

// The lifecycle is @qc/domain's (dependency-free, so a page may import it).
export { CANCELLABLE_STATUSES, isCancellableStatus as isCancellable, isTerminalStatus as isTerminal, TERMINAL_STATUSES, TRANSACTION_STATUSES } from "@qc/domain";

export const SCOPES = ["read", "write", "admin", "signer"] as const satisfies readonly Scope[];

export const WEBHOOK_EVENT_TYPES = [
  "transaction.created",
  "transaction.status_changed",
  "wallet.created",
  "vault.archived",
  "credential.rotated",
  "tenant.verification_changed",
  "webhook.test",
] as const satisfies readonly WebhookEventType[];

// Each list holds every name of its type (the `satisfies` above rules out unknown ones).
type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : ["missing", Exclude<All, Listed>];
const complete: [
  Missing<NetworkCode, (typeof NETWORKS)[number]>,
  Missing<TransactionStatus, (typeof TRANSACTION_STATUSES)[number]>,
  Missing<Scope, (typeof SCOPES)[number]>,
  Missing<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>,
] = [true, true, true, true];
void complete;
