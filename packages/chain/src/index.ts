// Networks and viem chains
export { NETWORKS, NETWORK_CODES, NATIVE_CURRENCY, isNetworkCode, networkByChainId, type Network, type NetworkCode } from "./networks";
export {
  quantumMainnet,
  quantumSandbox,
  getQuantumChain,
  toQuantumTransaction,
  type QuantumChain,
  type QuantumTransaction,
  type QuantumTransactionReceipt,
} from "./chains";

// Protocol (CONTRACT §5)
export {
  QUANTUM_TX_TYPE,
  QUANTUM_TX_TYPE_HEX,
  MLDSA87_DESCRIPTOR,
  MLDSA87_PUBLIC_KEY_LENGTH,
  MLDSA87_SECRET_KEY_LENGTH,
  MLDSA87_SIGNATURE_LENGTH,
  MLDSA87_SEED_LENGTH,
  TRANSACTION_SIGNATURE_CONTEXT,
  OWNERSHIP_PROOF_CONTEXT,
  APPROVAL_CONTEXT,
  ADDRESS_BOOK_APPROVAL_DOMAIN,
  APPROVER_KEY_CONTEXT,
} from "./protocol/constants";
export { generateKeyPair, publicKeyFromSecretKey, mlDsa87, type QuantumKeyPair } from "./protocol/keys";
export { addressFromPublicKey, parseAddress, isAddressInput } from "./protocol/address";
export {
  serializeQuantumTransaction,
  parseQuantumTransaction,
  signingHash,
  getQuantumTransactionHash,
  isSignedQuantumTransaction,
  type QuantumTransactionSerializable,
  type QuantumTransactionUnsigned,
  type QuantumTransactionSigned,
  type ParsedQuantumTransaction,
  type SerializedQuantumTransaction,
} from "./protocol/transaction";
export {
  signQuantumTransaction,
  signQuantumSigningHash,
  verifyQuantumTransactionSignature,
  verifyQuantumSigningHash,
  type SignQuantumTransactionParameters,
  type SignQuantumTransactionReturnType,
  type SignQuantumSigningHashParameters,
  type VerifyQuantumTransactionSignatureParameters,
} from "./protocol/signing";
export {
  ownershipProofMessage,
  signOwnershipProof,
  verifyOwnershipProof,
  type SignOwnershipProofParameters,
  type VerifyOwnershipProofParameters,
} from "./protocol/ownership-proof";
export {
  approvalLines,
  approvalHash,
  addressBookApprovalLines,
  addressBookApprovalHash,
  signApproval,
  verifyApproval,
  approverKeyProofHash,
  signApproverKeyProof,
  verifyApproverKeyProof,
  type ApprovalFields,
  type AddressBookApprovalFields,
  type VerifyApprovalParameters,
  type SignApproverKeyProofParameters,
  type VerifyApproverKeyProofParameters,
} from "./protocol/approval";
export { buildQuantumTransfer, type BuildQuantumTransferParameters } from "./protocol/build-transfer";

// ML-DSA-87 verification on worker threads (web process and daemon)
export {
  createVerifyPool,
  VerifyPoolBusyError,
  VerifyPoolClosedError,
  VerifyWorkerError,
  type CreateVerifyPoolParameters,
  type VerifyPool,
  type VerifyPoolStats,
  type VerifyRequest,
} from "./verify/verify-pool";
export { decodeVerifyRequest, type VerifyBytes } from "./verify/verify-input";
export {
  NativeVerifyUnavailableError,
  resolveVerifyImplementation,
  verifierOnThisThread,
  type ResolvedVerifyImplementation,
  type VerifyImplementation,
} from "./verify/verify-implementation";
export { verifyImplementationFromEnv, type VerifyImplementationChoice } from "./verify/env";

// viem clients, accounts and actions
export {
  createQuantumPublicClient,
  parseRpcUrls,
  InvalidRpcUrlError,
  type CreateQuantumPublicClientOptions,
  type QuantumPublicClient,
} from "./clients/create-quantum-public-client";
export { toQuantumAccount, type QuantumAccount, type ToQuantumAccountParameters } from "./accounts/to-quantum-account";
export {
  readNativeBalance,
  type ReadNativeBalanceParameters,
  type ReadNativeBalanceReturnType,
  type ReadNativeBalanceErrorType,
} from "./actions/read-native-balance";
export {
  readErc20Balance,
  type ReadErc20BalanceParameters,
  type ReadErc20BalanceReturnType,
  type ReadErc20BalanceErrorType,
} from "./actions/read-erc20-balance";
export { readLatestBalance, type ReadLatestBalanceParameters, type ReadLatestBalanceErrorType } from "./actions/read-latest-balance";
export {
  readErc20Metadata,
  NotAnErc20ContractError,
  type ReadErc20MetadataParameters,
  type ReadErc20MetadataReturnType,
  type ReadErc20MetadataErrorType,
} from "./actions/read-erc20-metadata";
export {
  sendRawQuantumTransaction,
  type SendRawQuantumTransactionParameters,
  type SendRawQuantumTransactionReturnType,
  type SendRawQuantumTransactionErrorType,
} from "./actions/send-raw-quantum-transaction";
export {
  confirmationsAt,
  getQuantumTransactionStatus,
  type GetQuantumTransactionStatusParameters,
  type GetQuantumTransactionStatusReturnType,
  type GetQuantumTransactionStatusErrorType,
} from "./actions/get-quantum-transaction-status";
export { getPendingNonce, type GetPendingNonceParameters, type GetPendingNonceReturnType } from "./actions/get-pending-nonce";
export { estimateQuantumFees, type EstimateQuantumFeesReturnType } from "./actions/estimate-quantum-fees";
export {
  simulateCalls,
  decodeRevertReason,
  transferOf,
  SimulationUnsupportedError,
  SimulationRejectedError,
  SIMULATION_REJECTION_CODES,
  NATIVE_TRANSFER_LOG_ADDRESS,
  TRANSFER_EVENT_TOPIC,
  type SimulateCallsCall,
  type SimulateCallsParameters,
  type SimulateCallsReturnType,
  type SimulateCallsErrorType,
  type SimulatedCall,
  type SimulatedLog,
  type SimulatedTransfer,
  type SimulationRejectionReason,
} from "./actions/simulate-calls";
export { ERC20_ABI } from "./erc20/abi";
export { erc20TransferCalldata, type Erc20TransferCalldataParameters } from "./erc20/transfer-calldata";

// Errors
export { BaseError, walkCauses, type BaseErrorParameters } from "./errors/base";
export { InvalidAddressError, InvalidPublicKeyError, InvalidSecretKeyError } from "./errors/address";
export {
  InvalidSerializedTransactionError,
  InvalidTransactionFieldError,
  TransactionHashMismatchError,
  UnsupportedOperationError,
} from "./errors/transaction";
export {
  mapRpcError,
  NonceTooLowError,
  NonceTooHighError,
  InsufficientFundsError,
  FeeTooLowError,
  TransactionUnderpricedError,
  InvalidTransactionSignatureError,
  WrongChainIdError,
  TransactionRejectedError,
  TransactionNotFoundError,
  RpcUnavailableError,
  CallRevertedError,
  ChainRpcError,
  TRANSACTION_REJECTION_REASONS,
  TRANSACTION_REJECTED_RPC_CODE,
  type MappedRpcError,
  type TransactionRejectionReason,
} from "./errors/node";
