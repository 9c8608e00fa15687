import { isAddressInput, parseAddress } from "@qc/chain";
import type { Hex } from "viem";
import { ReviewRefusedError } from "../errors";
import type { StoredKey } from "../keystore/format";
import { printableText } from "../review/printable-text";
import { isDefiniteRefusal } from "../service/outcome";
import type { Asset, BookEntry, SignerApi } from "../service/signer-api";
import { signWithSecretKey } from "../sign-transfer";
import type { DailyLedger } from "./daily-ledger";
import { VERIFICATION_RULE, type DecisionLine } from "./decision-line";
import { judgeRequest, type SigningIntent } from "./judge-request";
import type { ServeRules } from "./rules";
import type { SecretKeys } from "./secret-keys";
import { verifyRequest, type VerifiedRequest } from "./verify-request";
import { fetchOriginal } from "../review/fetch-original";

/** Requests decided, recorded and submitted together: one write of the ledger for each group. */
export const DECISION_GROUP = 8;
/** Submissions sent at once, each on a kept connection of its own (the client's `keptConnections`). */
export const SUBMISSIONS_IN_FLIGHT = 4;
/** How long a list of the tenant's assets or ACTIVE address book is trusted before it is read again. */
const ASSETS_TTL_MS = 60_000;
const ADDRESS_BOOK_TTL_MS = 1_000;
/** The service's limit on a rejection's reason (POST /v1/signer/transactions/{id}/reject). */
const REASON_MAX = 1000;

export type ServeDependencies = {
  api: Pick<SignerApi, "pendingTransactions" | "assets" | "record" | "activeAddressBook" | "submitSignature" | "reject">;
  findKey: (address: string) => StoredKey | undefined;
  rules: ServeRules;
  ledger: DailyLedger;
  /** Aborted on SIGTERM/SIGINT: no new submission starts after it. */
  signal: AbortSignal;
  /** Each source's secret key, derived once. */
  secretKeys: SecretKeys;
  emit: (line: DecisionLine) => void;
  warn: (message: string) => void;
  now?: () => Date;
};

type Decision =
  | { kind: "sign"; transaction: Record<string, unknown>; intent: SigningIntent; signature: Hex; counts: bigint }
  | {
      kind: "reject";
      transaction: Record<string, unknown>;
      intent: SigningIntent | null;
      rule: NonNullable<DecisionLine["rule"]>;
      reason: string;
    };

/** The state a `serve` process keeps between polls: caches of the service's lists, and what it already warned about. */
export function serveState() {
  return {
    assets: new Map<string, { at: number; assets: Promise<readonly Asset[]> }>(),
    addressBook: null as { at: number; entries: readonly BookEntry[] } | null,
    notOurs: new Set<string>(),
  };
}
export type ServeState = ReturnType<typeof serveState>;

/**
 * One poll of `signer serve`: lists the signing requests, oldest nonce first, and for each group
 * of DECISION_GROUP decides (the rebuild-and-compare of `review`, then the rules), records the
 * amounts to sign in the ledger (on disk before anything is sent: fail closed), then submits each
 * signature or rejection and emits its decision line — while the next group is decided, so that
 * signing and the service's answers overlap. Once `signal` is aborted no submission starts: each
 * one either completed or never began. A request whose source key this keystore does not hold is
 * left for another signer (warned once). Returns how many decisions the service accepted.
 */
export async function servePoll(deps: ServeDependencies, state: ServeState): Promise<number> {
  const { transactions } = await deps.api.pendingTransactions();
  const ours = transactions.filter((transaction) => holdsSource(deps, state, transaction));
  ours.sort((a, b) => Number(a.nonce) - Number(b.nonce) || String(a.createdAt).localeCompare(String(b.createdAt)));
  let accepted = 0;
  let submitting: Promise<void> = Promise.resolve();
  try {
    for (let start = 0; start < ours.length && !deps.signal.aborted; start += DECISION_GROUP) {
      const decisions = await decideGroup(deps, state, ours.slice(start, start + DECISION_GROUP));
      if (deps.signal.aborted) break;
      deps.ledger.record(
        decisions.flatMap((d) =>
          d.kind === "sign" && d.intent.kind === "TRANSFER"
            ? [{ transactionId: d.intent.transactionId, assetId: d.intent.assetId, amount: d.counts }]
            : [],
        ),
      );
      submitting = submitting.then(async () => {
        accepted += await submitAll(deps, decisions);
      });
    }
  } finally {
    // Whatever stopped the decisions, the submissions under way complete before the poll ends.
    await submitting;
  }
  return accepted;
}

function holdsSource(deps: ServeDependencies, state: ServeState, transaction: Record<string, unknown>): boolean {
  const source = transaction.sourceAddress;
  if (isAddressInput(source) && deps.findKey(parseAddress(source))) return true;
  const id = printableText(String(transaction.id), 64);
  if (!state.notOurs.has(id)) {
    if (state.notOurs.size > 10_000) state.notOurs.clear();
    state.notOurs.add(id);
    deps.warn(`leaving ${id} for another signer: its source ${printableText(String(source), 64)} is not a key in this keystore`);
  }
  return false;
}

/** Verifies, judges and signs each request of a group; today's totals include the group's earlier signatures. */
async function decideGroup(deps: ServeDependencies, state: ServeState, group: Record<string, unknown>[]): Promise<Decision[]> {
  const decisions: Decision[] = [];
  const pending = new Map<string, bigint>();
  const pendingIds = new Set<string>();
  for (const transaction of group) {
    if (deps.signal.aborted) break;
    let intent: SigningIntent;
    let signable: VerifiedRequest["signable"];
    try {
      ({ intent, signable } = await verifyRequest(transaction, {
        findKey: deps.findKey,
        assetsOf: (networkCode) => assetsOf(deps, state, networkCode, transaction.assetId),
        originalOf: (record) => fetchOriginal(deps.api, record),
      }));
    } catch (error) {
      if (error instanceof ReviewRefusedError) {
        decisions.push({ kind: "reject", transaction, intent: null, rule: VERIFICATION_RULE, reason: error.message });
        continue;
      }
      deps.warn(`could not verify ${printableText(String(transaction.id), 64)}, trying again at the next poll: ${message(error)}`);
      continue;
    }
    let book: readonly BookEntry[] = [];
    if (deps.rules.destinations === "ADDRESS_BOOK" && intent.kind === "TRANSFER") {
      try {
        book = await addressBook(deps, state);
      } catch (error) {
        deps.warn(
          `could not read the address book, trying ${printableText(intent.transactionId, 64)} again at the next poll: ${message(error)}`,
        );
        continue;
      }
    }
    const judgement = judgeRequest(deps.rules, intent, {
      signedToday: (assetId) => deps.ledger.signedToday(assetId) + (pending.get(assetId.toLowerCase()) ?? 0n),
      countedToday: (id) => deps.ledger.countedToday(id) || pendingIds.has(id),
      addressBook: () => book,
    });
    if (judgement.decision === "REJECT") {
      decisions.push({ kind: "reject", transaction, intent, rule: judgement.rule, reason: judgement.reason });
      continue;
    }
    if (intent.assetId !== null)
      pending.set(intent.assetId.toLowerCase(), (pending.get(intent.assetId.toLowerCase()) ?? 0n) + judgement.counts);
    pendingIds.add(intent.transactionId);
    const signature = signWithSecretKey(signable, deps.secretKeys.of(signable.sourceKey));
    decisions.push({ kind: "sign", transaction, intent, signature, counts: judgement.counts });
  }
  return decisions;
}

/**
 * Submits a group's decisions, SUBMISSIONS_IN_FLIGHT at a time (each on a kept connection of its
 * own): the service's answer to a signature takes longer than signing it, so one at a time would
 * make that answer the pace. None starts once `signal` is aborted; those in flight complete.
 */
async function submitAll(deps: ServeDependencies, decisions: Decision[]): Promise<number> {
  let next = 0;
  let accepted = 0;
  const submitter = async () => {
    while (next < decisions.length && !deps.signal.aborted) {
      const decision = decisions[next++]!;
      if (await carryOut(deps, decision)) accepted += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SUBMISSIONS_IN_FLIGHT, decisions.length) }, submitter));
  return accepted;
}

/** Submits one decision and emits its line once the service accepted it (true); a refusal or failure is warned about. */
async function carryOut(deps: ServeDependencies, decision: Decision): Promise<boolean> {
  const id = String(decision.transaction.id);
  const shown = printableText(id, 64);
  try {
    if (decision.kind === "sign") await deps.api.submitSignature(id, decision.signature);
    else await deps.api.reject(id, printableText(`signer serve, rule ${decision.rule}: ${decision.reason}`, REASON_MAX - 1));
  } catch (error) {
    const what = decision.kind === "sign" ? "signature" : "rejection";
    deps.warn(
      isDefiniteRefusal(error)
        ? `the service refused the ${what} of ${shown}: ${message(error)}`
        : `the ${what} of ${shown} may not have reached the service, trying again at the next poll if it is still waiting: ${message(error)}`,
    );
    return false;
  }
  deps.emit(decisionLine(decision, (deps.now ?? (() => new Date()))()));
  return true;
}

function decisionLine(decision: Decision, now: Date): DecisionLine {
  const { transaction, intent } = decision;
  const line: DecisionLine = {
    time: now.toISOString(),
    transactionId: printableText(String(transaction.id), 64),
    type: printableText(String(transaction.type), 32),
    decision: decision.kind === "sign" ? "SIGNED" : "REJECTED",
    amount: intent ? intent.amount.toString() : printableText(String(transaction.amount), 80),
    assetId: intent ? intent.assetId : typeof transaction.assetId === "string" ? printableText(transaction.assetId, 64) : null,
    destination: intent
      ? intent.destination
      : typeof transaction.destinationAddress === "string"
        ? printableText(transaction.destinationAddress, 64)
        : null,
  };
  if (decision.kind === "reject") Object.assign(line, { rule: decision.rule, reason: decision.reason });
  return line;
}

/** The network's assets, read again when older than ASSETS_TTL_MS or when `assetId` is not among them (a token added since). */
export async function assetsOf(
  deps: { api: Pick<SignerApi, "assets"> },
  state: ServeState,
  networkCode: string,
  assetId: unknown,
): Promise<readonly Asset[]> {
  const cached = state.assets.get(networkCode);
  if (cached && Date.now() - cached.at < ASSETS_TTL_MS) {
    const assets = await cached.assets.catch(() => null);
    if (assets && assets.some((asset) => asset.id === assetId)) return assets;
    if (assets && Date.now() - cached.at < ADDRESS_BOOK_TTL_MS) return assets;
  }
  const fresh = { at: Date.now(), assets: deps.api.assets(networkCode) };
  state.assets.set(networkCode, fresh);
  return fresh.assets;
}

/** The tenant's ACTIVE address book, read again when older than ADDRESS_BOOK_TTL_MS. */
export async function addressBook(deps: { api: Pick<SignerApi, "activeAddressBook"> }, state: ServeState): Promise<readonly BookEntry[]> {
  if (state.addressBook && Date.now() - state.addressBook.at < ADDRESS_BOOK_TTL_MS) return state.addressBook.entries;
  const entries = await deps.api.activeAddressBook();
  state.addressBook = { at: Date.now(), entries };
  return entries;
}

export const message = (error: unknown) => printableText(error instanceof Error ? error.message : String(error), 500);
