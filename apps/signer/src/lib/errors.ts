/**
 * Every failure the signer reports to a person. The CLI prints `message` (never a stack) and
 * exits 1; `UsageError` exits 2. Messages never contain key material, seeds, the passphrase
 * or the API secret.
 */
export class SignerError extends Error {
  override name = "SignerError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The command line itself is wrong (missing option, bad value): exit code 2. */
export class UsageError extends SignerError {
  override name = "UsageError";
}

/** The keystore could not be decrypted: wrong passphrase, or a damaged file. */
export class WrongPassphraseError extends SignerError {
  override name = "WrongPassphraseError";
  constructor(path: string) {
    super(`wrong passphrase: the keystore ${path} could not be decrypted with it (or the file is damaged)`);
  }
}

export type ReviewDifference = { field: string; reason: string };

/**
 * `review` refused to sign because what the service asked for is not what the person was
 * shown, or the record itself cannot be shown truthfully. `fields` names every displayed
 * field (or signing-request field) at fault, first the most telling.
 */
export class ReviewRefusedError extends SignerError {
  override name = "ReviewRefusedError";
  readonly differences: ReviewDifference[];

  constructor(differences: ReviewDifference[]) {
    super(`refused to sign: ${differences.map((d) => `${d.field} ${d.reason}`).join("; ")}. Nothing was signed or sent.`);
    this.differences = differences;
  }

  get fields(): string[] {
    return this.differences.map((d) => d.field);
  }
}
