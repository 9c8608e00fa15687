/**
 * PEM: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/i anywhere: a superset of the
 *   contract's (RSA |EC |ENCRYPTED |OPENSSH |DSA )? list (also "PGP PRIVATE KEY BLOCK").
 *   Public keys and certificates pass; bare base64 DER without the armour is not detected.
 */
const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/i;

/** Shorter strings cannot hold any key material: `-----BEGIN PRIVATE KEY-----` is 27 chars. */
export const MIN_PEM = "-----BEGIN PRIVATE KEY-----".length;

export function hasPemPrivateKey(s: string): boolean {
  return s.indexOf("-----") !== -1 && PEM_PRIVATE.test(s);
}
