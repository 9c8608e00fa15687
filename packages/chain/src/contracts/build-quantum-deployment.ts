import type { Hex } from "viem";
import type { QuantumTransactionSerializable } from "../protocol/transaction";
import { encodeTemplateDeployment, type CanonicalConstructorArgs } from "./encode-template-deployment";
import type { ContractTemplate } from "./templates";

export type BuildQuantumDeploymentParameters = {
  chainId: number;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  gas: bigint;
  template: ContractTemplate;
  /** Validated against the template's constructor (see `encodeTemplateDeployment`). */
  constructorArgs: unknown;
};

export type BuildQuantumDeploymentReturnType = {
  transaction: QuantumTransactionSerializable;
  constructorArgs: CanonicalConstructorArgs;
  /** keccak256 of the creation bytecode: the template's pinned hash. */
  bytecodeHash: Hex;
};

/**
 * The unsigned `0x51` contract creation of a catalog template: no `to`, no value, `data` = the
 * template's pinned creation bytecode followed by the ABI-encoded constructor arguments. The
 * service and the signer each build it from the template id and the arguments, never from
 * bytes someone else stored.
 */
export function buildQuantumDeployment(params: BuildQuantumDeploymentParameters): BuildQuantumDeploymentReturnType {
  const { data, constructorArgs, bytecodeHash } = encodeTemplateDeployment({
    template: params.template,
    constructorArgs: params.constructorArgs,
  });
  return {
    transaction: {
      chainId: params.chainId,
      nonce: params.nonce,
      maxFeePerGas: params.maxFeePerGas,
      maxPriorityFeePerGas: params.maxPriorityFeePerGas,
      gas: params.gas,
      to: null,
      value: 0n,
      data,
      accessList: [],
    },
    constructorArgs,
    bytecodeHash,
  };
}
