// The signer's reusable core: the CLI, its tests, the dashboard's browser tests and a future
// desktop app use it. It speaks the protocol through @qc/chain and the service only over
// HTTPS; it never imports the server's packages.
export { SignerError, UsageError, WrongPassphraseError, ReviewRefusedError, type ReviewDifference } from "./errors";
export { writeFileAtomic, type WriteFileAtomicOptions } from "./atomic-write";
export { withFileLock } from "./file-lock";
export {
  KEYSTORE_FORMAT,
  KEYSTORE_VERSION,
  DEFAULT_KDF,
  keystoreFileSchema,
  type KdfParameters,
  type KeystoreContents,
  type KeystoreFile,
  type StoredApprovalKey,
  type StoredKey,
} from "./keystore/format";
export {
  createKeystore,
  openKeystore,
  keystoreExists,
  UnlockedKeystore,
  MIN_PASSPHRASE_LENGTH,
  type KeystoreUpdateOptions,
} from "./keystore/keystore";
export { keyFromSeed, secretKeyOf, readSeedFile, type KeyMaterial } from "./keystore/signer-key";
export { readProfile, writeProfile, type Profile } from "./profile";
export {
  createServiceClient,
  parseServiceUrl,
  ServiceError,
  type ServiceClient,
  type ServiceClientOptions,
} from "./service/service-client";
export {
  signerApi,
  pendingTransactionSchema,
  assetSchema,
  type SignerApi,
  type PendingTransaction,
  type Asset,
  type SigningRequest,
} from "./service/signer-api";
export { isDefiniteRefusal } from "./service/outcome";
export { readTransfer, type DisplayedTransfer, type ReadTransferParameters } from "./review/read-transfer";
export { verifySigningRequest, type VerifiedTransfer } from "./review/verify-signing-request";
export { describeTransfer, describeVerification } from "./review/describe-transfer";
export { formatAmount, formatQ, formatQwei } from "./review/format-amount";
export { printableText } from "./review/printable-text";
export { signTransfer } from "./sign-transfer";
export { readDeployment, type DisplayedDeployment, type ReadDeploymentParameters } from "./review/read-deployment";
export { verifyDeploymentRequest, type VerifiedDeployment } from "./review/verify-deployment-request";
export { describeDeployment, describeDeploymentVerification, formatConstructorArguments } from "./review/describe-deployment";
export { enrollKeys, ENROLL_BATCH_SIZE, MAX_ENROLL_COUNT, type EnrollKeysParameters, type EnrollKeysResult } from "./enroll-keys";
export { registerWallet, type RegisterWalletParameters, type RegisterWalletResult } from "./register-wallet";
export { summarizeTransaction, type TransactionSummary } from "./review/summarize-transaction";
export { approvalTransactionSchema, type ApprovalTransaction, type ApprovalRequest, type ApprovalDecision } from "./service/approvals-api";
export { enrollApprover, type EnrollApproverParameters, type EnrollApproverResult } from "./approvals/enroll-approver";
export { currentApprovalKey, signApprovalHash, approvalSecretKeyOf } from "./approvals/approval-key";
export { readApprovalRequest, AWAITING_APPROVAL, type VerifiedApproval, type ReadApprovalParameters } from "./approvals/read-approval";
export { describeApproval, describeApprovalVerification } from "./approvals/describe-approval";
