import { BaseError, type NetworkCode } from "@qc/chain";
import { AppError } from "../errors";

/**
 * A failure talking to a network's RPC, as the contract's 503 UNAVAILABLE naming the network.
 * Errors of the chain package (RpcUnavailableError and the other mapped node errors) and raw
 * transport errors alike: a read that cannot be answered is "the chain cannot be reached".
 */
export function chainUnavailable(networkCode: NetworkCode, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const reason = error instanceof BaseError ? error.shortMessage : "the RPC request failed";
  return new AppError("UNAVAILABLE", `the ${networkCode} network cannot be reached: ${reason}`, {
    details: { networkCode },
    retryAfter: 5,
    cause: error,
  });
}
