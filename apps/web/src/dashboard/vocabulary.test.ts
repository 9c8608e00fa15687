import {
  EVENT_TYPES,
  OPERATOR_SESSION_COOKIE as SERVICE_OPERATOR_COOKIE,
  SESSION_COOKIE,
  TERMINAL_STATUSES as SERVICE_TERMINAL,
  TRANSACTION_STATUSES as SERVICE_STATUSES,
  CANCELLABLE_STATUSES as SERVICE_CANCELLABLE,
  SCOPES as SERVICE_SCOPES,
} from "@qc/core";
import { ADDRESS_BOOK_ENTRY_STATUSES, POLICY_DESTINATION_MATCHES, SUB_STATUSES } from "@qc/domain";
import { NETWORK_CODES } from "@qc/chain";
import { describe, expect, it } from "vitest";
import { OPERATOR_SESSION_COOKIE, TENANT_SESSION_COOKIE } from "./session-cookies";
import {
  ADDRESS_BOOK_STATUS_HINTS,
  CANCELLABLE_STATUSES,
  NETWORKS,
  POLICY_DESTINATION_NAMES,
  SCOPES,
  STATUS_TONE_TABLES,
  STATUS_TONES,
  SUB_STATUS_HINTS,
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
