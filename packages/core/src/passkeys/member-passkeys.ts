import {
  advancePasskeyCounter,
  deleteSpentWebauthnChallenges,
  findMemberPasskeyByCredentialId,
  insertPasskey,
  insertWebauthnChallenge,
  listMemberPasskeys,
  useWebauthnChallenge,
} from "@qc/db/queries";
import type { PasskeyRealm } from "./passkey-realm";

/** A member, as their passkeys name them. */
export interface MemberRef {
  tenantId: string;
  userId: string;
}

/** The dashboard's passkeys: a tenant's members', in `passkeys` and `webauthn_challenges`. */
export const memberPasskeys: PasskeyRealm<MemberRef> = {
  owner: "a member",
  credentialIdUnique: "passkeys_credential_id_unique",
  listPasskeys: (db, member) => listMemberPasskeys(db, member),
  findPasskey: (db, member, credentialId) => findMemberPasskeyByCredentialId(db, { ...member, credentialId }),
  insertPasskey: (db, member, passkey) => insertPasskey(db, { ...member, ...passkey }),
  advanceCounter: (db, member, change) => advancePasskeyCounter(db, { tenantId: member.tenantId, ...change }),
  deleteSpentChallenges: (db, member, now) => deleteSpentWebauthnChallenges(db, { userId: member.userId, now }),
  insertChallenge: (db, member, challenge) => insertWebauthnChallenge(db, { ...member, ...challenge }),
  useChallenge: async (db, challenge, member) => {
    const used = await useWebauthnChallenge(db, { ...challenge, ...member });
    return used && { owner: { tenantId: used.tenantId, userId: used.userId }, challenge: used.challenge };
  },
};
