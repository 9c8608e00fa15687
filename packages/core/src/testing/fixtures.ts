import { bytesToHex } from "@noble/hashes/utils.js";
import { addressFromPublicKey, generateKeyPair, signOwnershipProof } from "@qc/chain";
import { schema, type Database } from "@qc/db";
import type { TenantStatus } from "@qc/domain";
import { generateSessionToken, hashToken } from "../auth/tokens";
import type { Scope } from "../auth/scopes";
import { createApiKey } from "../credentials/create-api-key";

export interface TenantFixture {
  tenantId: string;
  userId: string;
  email: string;
  keyId: string;
  secret: string;
  /** `Authorization` header value for the fixture's API key. */
  authorization: string;
}

let counter = 0;

/**
 * A tenant with one admin user and one API key, made through the real services where they
 * exist; for tests of everything that is not signup itself (signup has its own end-to-end test).
 */
export async function createTenantFixture(
  deps: { db: Database; pepper: Buffer; now?: () => Date },
  options: { status?: TenantStatus; scopes?: Scope[]; name?: string } = {},
): Promise<TenantFixture> {
  counter += 1;
  const now = deps.now ?? (() => new Date());
  const [tenant] = await deps.db
    .insert(schema.tenants)
    .values({ name: options.name ?? `Fixture Org ${counter}`, status: options.status ?? "VERIFIED" })
    .returning();
  const email = `admin-${counter}-${tenant!.id.slice(-8)}@fixture.test`;
  const [user] = await deps.db
    .insert(schema.users)
    .values({
      tenantId: tenant!.id,
      email,
      name: "Fixture Admin",
      passwordHash: "!fixture-no-login",
      role: "OWNER",
      status: "EMAIL_VERIFIED",
      emailVerifiedAt: now(),
    })
    .returning();
  const key = await createApiKey({ db: deps.db, now }, deps.pepper, {
    tenantId: tenant!.id,
    userId: user!.id,
    label: "fixture",
    scopes: options.scopes,
  });
  return {
    tenantId: tenant!.id,
    userId: user!.id,
    email,
    keyId: key.keyId,
    secret: key.secret,
    authorization: `Bearer ${key.keyId}:${key.secret}`,
  };
}

/** A key with other scopes for an existing fixture tenant. */
export async function createKeyFixture(deps: { db: Database; pepper: Buffer }, tenant: TenantFixture, scopes: Scope[]) {
  const key = await createApiKey({ db: deps.db, now: () => new Date() }, deps.pepper, {
    tenantId: tenant.tenantId,
    userId: tenant.userId,
    label: `fixture ${scopes.join("+")}`,
    scopes,
  });
  return { keyId: key.keyId, secret: key.secret, authorization: `Bearer ${key.keyId}:${key.secret}` };
}

/** A dashboard session for the fixture's admin, as login would create it. */
export async function createSessionFixture(
  deps: { db: Database; now?: () => Date },
  tenant: TenantFixture,
): Promise<{ token: string; authorization: string }> {
  const now = (deps.now ?? (() => new Date()))();
  const token = generateSessionToken();
  await deps.db.insert(schema.sessions).values({
    userId: tenant.userId,
    tenantId: tenant.tenantId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + 12 * 3600_000),
    lastSeenAt: now,
    createdAt: now,
  });
  return { token, authorization: `Bearer ${token}` };
}

/** A fresh ML-DSA-87 key, as the signer would hold it, with its address and its ownership proof for a tenant. */
export function createWalletKeyFixture() {
  const { publicKey, secretKey } = generateKeyPair();
  const address = addressFromPublicKey(publicKey);
  return {
    address,
    publicKey: `0x${bytesToHex(publicKey)}`,
    proofFor: (tenantId: string) => signOwnershipProof({ tenantId, address, secretKey }),
  };
}
