import type { AppRouter } from "@qc/api";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";

/** What the dashboard's procedures take and answer, straight from the routers. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export type Transaction = RouterOutputs["transactions"]["get"];
export type TransactionStatus = Transaction["status"];
export type TransactionEvent = RouterOutputs["transactions"]["events"]["events"][number];
export type Vault = RouterOutputs["vaults"]["get"];
export type Wallet = RouterOutputs["wallets"]["get"];
export type Asset = RouterOutputs["assets"]["list"]["assets"][number];
export type NetworkCode = Vault["networkCode"];
export type ApiKey = RouterOutputs["credentials"]["list"]["data"][number];
export type Scope = ApiKey["scopes"][number];
export type WebhookEndpoint = RouterOutputs["webhooks"]["list"]["webhooks"][number];
export type WebhookDelivery = RouterOutputs["webhooks"]["deliveries"]["list"]["deliveries"][number];
export type WebhookEventType = NonNullable<RouterInputs["webhooks"]["create"]["events"]>[number];
export type Policy = RouterOutputs["policies"]["get"];
export type PolicyDocumentInput = RouterInputs["policies"]["replace"];
export type PolicyDecision = RouterOutputs["policies"]["evaluate"];
export type AuditEvent = RouterOutputs["auditEvents"]["list"]["events"][number];
export type OnboardingStatus = RouterOutputs["onboarding"]["status"];
export type QueueOverview = RouterOutputs["operators"]["queues"]["queues"][number];
export type DaemonInstance = RouterOutputs["operators"]["daemons"]["instances"][number];
export type FailedJob = RouterOutputs["operators"]["failedJobs"]["jobs"][number];
export type SignedInMember = RouterOutputs["session"]["me"];
export type MemberRole = SignedInMember["member"]["role"];
export type Member = RouterOutputs["members"]["list"]["members"][number];
export type Invitation = RouterOutputs["members"]["invitations"]["list"]["invitations"][number];
export type AddressBookEntry = RouterOutputs["addressBook"]["list"]["entries"][number];
export type AddressBookStatus = AddressBookEntry["status"];
