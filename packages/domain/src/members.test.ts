import { describe, expect, it } from "vitest";
import { MEMBER_ACTIONS, MEMBER_ROLES, roleAllows, rolesAllowing } from "./index";

/**
 * CONTRACT §14's table as the contract prints it, row by row (✓ / –), written out here rather
 * than derived from the code under test. Columns: OWNER, ADMIN, INITIATOR, APPROVER, VIEWER.
 */
const CONTRACT_TABLE = {
  read: "✓ ✓ ✓ ✓ ✓", // read everything of the tenant
  transact: "✓ ✓ ✓ – –", // create / cancel transfers and deployments, speed-up, vaults, wallets, signer routes
  approve: "✓ ✓ ✓ ✓ –", // decide approvals (§15) when in a required group
  own_keys: "✓ ✓ ✓ ✓ ✓", // create and revoke their own API keys
  administer: "✓ ✓ – – –", // webhooks, policies, settings, address book, approver groups, others' keys
  manage_members: "✓ ✓ – – –", // invite, change, remove members (not owners)
  manage_owners: "✓ – – – –", // make or remove an OWNER
} as const;
const COLUMNS = ["OWNER", "ADMIN", "INITIATOR", "APPROVER", "VIEWER"] as const;

describe("the permission table (CONTRACT §14)", () => {
  it("names the contract's roles, in its column order, and one action per row", () => {
    expect([...MEMBER_ROLES]).toEqual([...COLUMNS]);
    expect([...MEMBER_ACTIONS]).toEqual(Object.keys(CONTRACT_TABLE));
  });

  it("allows exactly the contract's ✓ cells", () => {
    const matrix = Object.fromEntries(
      MEMBER_ACTIONS.map((action) => [action, MEMBER_ROLES.map((role) => (roleAllows(role, action) ? "✓" : "–")).join(" ")]),
    );
    expect(matrix).toEqual(CONTRACT_TABLE);
  });

  it("lists the roles allowed an action in the roles' order", () => {
    expect(rolesAllowing("administer")).toEqual(["OWNER", "ADMIN"]);
    expect(rolesAllowing("manage_owners")).toEqual(["OWNER"]);
    expect(rolesAllowing("read")).toEqual([...COLUMNS]);
  });
});
