import {
  EVENT_TYPES,
  OPERATOR_SESSION_COOKIE as SERVICE_OPERATOR_COOKIE,
  SESSION_COOKIE,
  TERMINAL_STATUSES as SERVICE_TERMINAL,
  TRANSACTION_STATUSES as SERVICE_STATUSES,
  CANCELLABLE_STATUSES as SERVICE_CANCELLABLE,
  SCOPES as SERVICE_SCOPES,
} from "@qc/core";
import {
  ADDRESS_BOOK_ENTRY_STATUSES,
  API_KEY_STATUSES,
  APPROVAL_DECISIONS,
  DAEMON_INSTANCE_STATUSES,
  FAILED_JOB_STATUSES,
  KYC_STATUSES,
  POLICY_ACTIONS,
  POLICY_DESTINATION_MATCHES,
  SUB_STATUSES,
  TENANT_STATUSES,
  TRANSACTION_SUB_STATUSES,
  VAULT_STATUSES,
  WALLET_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
} from "@qc/domain";
import { NETWORK_CODES } from "@qc/chain";
import { describe, expect, it } from "vitest";
import { OPERATOR_SESSION_COOKIE, TENANT_SESSION_COOKIE } from "./session-cookies";
import {
  ADDRESS_BOOK_STATUS_HINTS,
  CANCELLABLE_STATUSES,
  NETWORKS,
  phraseBeside,
  POLICY_DESTINATION_NAMES,
  SCOPES,
  STATUS_PHRASE_TABLES,
  STATUS_PHRASES,
  STATUS_TONE_TABLES,
  STATUS_TONES,
  SUB_STATUS_HINTS,
  SUB_STATUS_PHRASES,
  TERMINAL_STATUSES,
  TRANSACTION_STATUS_HINTS,
  TRANSACTION_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from "./vocabulary";

describe("the dashboard's copies of the contract's names", () => {
  it("match the service's lists", () => {
    expect([...TRANSACTION_STATUSES]).toEqual([...SERVICE_STATUSES]);
    expect([...TERMINAL_STATUSES].sort()).toEqual([...SERVICE_TERMINAL].sort());
    expect([...CANCELLABLE_STATUSES].sort()).toEqual([...SERVICE_CANCELLABLE].sort());
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...EVENT_TYPES].sort());
    expect([...NETWORKS].sort()).toEqual([...NETWORK_CODES].sort());
    expect([...SCOPES]).toEqual([...SERVICE_SCOPES]);
  });

  it("name the session cookies the service sets", () => {
    expect(TENANT_SESSION_COOKIE).toBe(SESSION_COOKIE);
    expect(OPERATOR_SESSION_COOKIE).toBe(SERVICE_OPERATOR_COOKIE);
  });
});

describe("the status badges' tones", () => {
  it("agree wherever two vocabularies share a status name (ACTIVE, FAILED, REJECTED…)", () => {
    const disagreements = Object.entries(STATUS_TONE_TABLES).flatMap(([table, tones]) =>
      Object.entries(tones)
        .filter(([status, tone]) => STATUS_TONES[status as keyof typeof STATUS_TONES] !== tone)
        .map(([status, tone]) => `${table}.${status} is ${tone}, another table says ${STATUS_TONES[status as keyof typeof STATUS_TONES]}`),
    );
    expect(disagreements).toEqual([]);
  });

  it("follow the transaction lifecycle: in progress until terminal, then ok, quietly ended or gone wrong", () => {
    expect(STATUS_TONE_TABLES.transaction).toEqual({
      SUBMITTED: "info",
      AWAITING_APPROVAL: "info",
      QUEUED: "info",
      PENDING_SIGNATURE: "info",
      SIGNED: "info",
      BROADCASTING: "info",
      CONFIRMING: "info",
      COMPLETED: "ok",
      BLOCKED: "bad",
      REJECTED: "bad",
      CANCELLED: "muted",
      EXPIRED: "bad",
      FAILED: "bad",
    });
  });
});

describe("the approval quorums' words (CONTRACT §15)", () => {
  it("are offered and explained: AWAITING_APPROVAL in the filters, its endings' subStatuses, the decisions' badges", () => {
    expect(TRANSACTION_STATUSES).toContain("AWAITING_APPROVAL");
    expect(CANCELLABLE_STATUSES).toContain("AWAITING_APPROVAL");
    expect(Object.keys(TRANSACTION_STATUS_HINTS)).toEqual([...SERVICE_STATUSES]);
    expect(Object.keys(SUB_STATUS_HINTS).sort()).toEqual(Object.values(SUB_STATUSES).flat().sort());
    expect(SUB_STATUS_HINTS.REJECTED_BY_APPROVER).toContain("approver");
    expect(SUB_STATUS_HINTS.APPROVAL_TIMEOUT).toContain("quorum");
    expect(STATUS_TONE_TABLES.approvalDecision).toEqual({ APPROVED: "ok", REJECTED: "bad" });
    expect(STATUS_TONE_TABLES.policyDecision.REQUIRE_APPROVAL).toBe("info");
  });
});

describe("the address book's words (CONTRACT §16)", () => {
  it("give every entry status a tone and a meaning, ACTIVE alone counting as in the book", () => {
    expect(STATUS_TONE_TABLES.addressBookEntry).toEqual({ AWAITING_APPROVAL: "info", PENDING: "info", ACTIVE: "ok", REMOVED: "muted" });
    expect(Object.keys(ADDRESS_BOOK_STATUS_HINTS)).toEqual([...ADDRESS_BOOK_ENTRY_STATUSES]);
    expect(ADDRESS_BOOK_STATUS_HINTS.ACTIVE).toContain("in the book");
    expect(ADDRESS_BOOK_STATUS_HINTS.PENDING).toContain("not in the book");
    expect(ADDRESS_BOOK_STATUS_HINTS.AWAITING_APPROVAL).toContain("quorum");
  });

  it("name both of a policy rule's destination matches", () => {
    expect(Object.keys(POLICY_DESTINATION_NAMES)).toEqual([...POLICY_DESTINATION_MATCHES]);
    expect(POLICY_DESTINATION_NAMES.NOT_ADDRESS_BOOK).toBe("not in the address book");
  });
});

describe("the plain words beside the contract's names", () => {
  it("cover every status of every vocabulary in @qc/domain, and nothing else", () => {
    const { transaction, vaultOrWallet, apiKey, webhookEndpoint, webhookDelivery, tenant, kyc, policyDecision, approvalDecision } =
      STATUS_PHRASE_TABLES;
    expect(Object.keys(transaction)).toEqual([...SERVICE_STATUSES]);
    expect(sorted(Object.keys(vaultOrWallet))).toEqual(sorted([...new Set([...VAULT_STATUSES, ...WALLET_STATUSES])]));
    expect(sorted(Object.keys(apiKey))).toEqual(sorted(API_KEY_STATUSES));
    expect(sorted(Object.keys(webhookEndpoint))).toEqual(sorted(WEBHOOK_ENDPOINT_STATUSES));
    expect(sorted(Object.keys(webhookDelivery))).toEqual(sorted(WEBHOOK_DELIVERY_STATUSES));
    expect(sorted(Object.keys(tenant))).toEqual(sorted(TENANT_STATUSES));
    expect(sorted(Object.keys(kyc))).toEqual(sorted(KYC_STATUSES));
    expect(sorted(Object.keys(policyDecision))).toEqual(sorted(POLICY_ACTIONS));
    expect(sorted(Object.keys(approvalDecision))).toEqual(sorted(APPROVAL_DECISIONS));
    expect(sorted(Object.keys(STATUS_PHRASE_TABLES.addressBookEntry))).toEqual(sorted(ADDRESS_BOOK_ENTRY_STATUSES));
    expect(sorted(Object.keys(STATUS_PHRASE_TABLES.daemon))).toEqual(sorted(DAEMON_INSTANCE_STATUSES));
    expect(sorted(Object.keys(STATUS_PHRASE_TABLES.failedJob))).toEqual(sorted(FAILED_JOB_STATUSES));
    // Every vocabulary a badge shows has words, status for status, as it has a tone.
    for (const [table, tones] of Object.entries(STATUS_TONE_TABLES))
      expect(sorted(Object.keys(STATUS_PHRASE_TABLES[table as keyof typeof STATUS_PHRASE_TABLES])), table).toEqual(
        sorted(Object.keys(tones)),
      );
  });

  it("cover every subStatus, none empty", () => {
    expect(sorted(Object.keys(SUB_STATUS_PHRASES))).toEqual(sorted(TRANSACTION_SUB_STATUSES));
    for (const phrase of [...Object.values(SUB_STATUS_PHRASES), ...Object.values(STATUS_PHRASES)]) expect(phrase.trim()).not.toBe("");
  });

  it("agree wherever two vocabularies share a name, since a badge knows only the name", () => {
    const disagreements = Object.entries(STATUS_PHRASE_TABLES).flatMap(([table, phrases]) =>
      Object.entries(phrases)
        .filter(([status, phrase]) => STATUS_PHRASES[status as keyof typeof STATUS_PHRASES] !== phrase)
        .map(
          ([status, phrase]) =>
            `${table}.${status} is "${phrase}", another table says "${STATUS_PHRASES[status as keyof typeof STATUS_PHRASES]}"`,
        ),
    );
    expect(disagreements).toEqual([]);
  });

  it("say what a transfer waits for, and are left out where they would only repeat the name", () => {
    expect(STATUS_PHRASES.PENDING_SIGNATURE).toBe("Waiting for signature");
    expect(phraseBeside("PENDING_SIGNATURE", STATUS_PHRASES.PENDING_SIGNATURE)).toBe("Waiting for signature");
    expect(phraseBeside("COMPLETED", STATUS_PHRASES.COMPLETED)).toBeUndefined();
    expect(phraseBeside("ACTIVE", STATUS_PHRASES.ACTIVE)).toBeUndefined();
    expect(phraseBeside("AWAITING_APPROVAL", STATUS_PHRASES.AWAITING_APPROVAL)).toBe("Waiting for approval");
  });
});

function sorted(names: readonly string[]): string[] {
  return [...names].sort();
}
