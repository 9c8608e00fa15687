import { createRouter } from "../trpc";
import { exportAuditEventsProcedure } from "./audit/export-audit-events";
import { getAuditPublicKeyProcedure } from "./audit/get-audit-public-key";
import { listAuditEventsProcedure } from "./audit/list-audit-events";
import { authRouter } from "./auth";
import { credentialsRouter } from "./credentials";
import { devMailboxRouter } from "./dev";
import { onboardingRouter } from "./onboarding";
import { signupRouter } from "./signup";
import { settingsRouter } from "./settings";
import { vaultsRouter } from "./vaults";
import { walletsRouter } from "./wallets";
import { assetsRouter } from "./assets";
import { balancesRouter } from "./balances";
import { signerRouter } from "./signer";
import { webhooksRouter } from "./webhooks";
import { transactionsRouter } from "./transactions";
import { policiesRouter } from "./policies";
import { contractsRouter } from "./contracts";
import { membersRouter } from "./members";
import { approverGroupsRouter } from "./approver-groups";
import { passkeysRouter } from "./passkeys";
import { sessionRouter } from "./session";
import { operatorsRouter } from "./operators";
import { approvalsRouter } from "./approvals";
import { addressBookRouter } from "./address-book";

/** Every area's router, merged; the same object serves /api/trpc and /v1. */
export const appRouter = createRouter({
  credentials: credentialsRouter,
  signup: signupRouter,
  auth: authRouter,
  onboarding: onboardingRouter,
  devMailbox: devMailboxRouter,
  settings: settingsRouter,
  auditEvents: createRouter({ list: listAuditEventsProcedure, export: exportAuditEventsProcedure }),
  audit: createRouter({ publicKey: getAuditPublicKeyProcedure }),
  vaults: vaultsRouter,
  wallets: walletsRouter,
  assets: assetsRouter,
  balances: balancesRouter,
  signer: signerRouter,
  webhooks: webhooksRouter,
  transactions: transactionsRouter,
  policies: policiesRouter,
  contracts: contractsRouter,
  operators: operatorsRouter,
  // Last: the fuzz seeds each route by its position (fuzz-every-route.test.ts), so a new area goes after the others.
  members: membersRouter,
  passkeys: passkeysRouter,
  session: sessionRouter,
  approverGroups: approverGroupsRouter,
  approvals: approvalsRouter,
  addressBook: addressBookRouter,
});

export type AppRouter = typeof appRouter;
