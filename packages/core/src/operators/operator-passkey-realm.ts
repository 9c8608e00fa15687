import {
  advanceOperatorPasskeyCounter,
  deleteSpentOperatorWebauthnChallenges,
  findOperatorPasskeyByCredentialId,
  insertOperatorPasskey,
  insertOperatorWebauthnChallenge,
  listOperatorPasskeys,
  useOperatorWebauthnChallenge,
} from "@qc/db/queries";
import type { PasskeyRealm } from "../passkeys/passkey-realm";

/** The console's passkeys: operators', in `operator_passkeys` and `operator_webauthn_challenges`. */
export const operatorPasskeys: PasskeyRealm<{ operatorId: string }> = {
  owner: "an operator",
  credentialIdUnique: "operator_passkeys_credential_id_unique",
  listPasskeys: (db, operator) => listOperatorPasskeys(db, operator),
  findPasskey: (db, operator, credentialId) => findOperatorPasskeyByCredentialId(db, { ...operator, credentialId }),
  insertPasskey: (db, operator, passkey) => insertOperatorPasskey(db, { ...operator, ...passkey }),
  advanceCounter: (db, operator, change) => advanceOperatorPasskeyCounter(db, { ...operator, ...change }),
  deleteSpentChallenges: (db, operator, now) => deleteSpentOperatorWebauthnChallenges(db, { ...operator, now }),
  insertChallenge: (db, operator, challenge) => insertOperatorWebauthnChallenge(db, { ...operator, ...challenge }),
  useChallenge: async (db, challenge, operator) => {
    const used = await useOperatorWebauthnChallenge(db, { ...challenge, ...operator });
    return used && { owner: { operatorId: used.operatorId }, challenge: used.challenge };
  },
};
