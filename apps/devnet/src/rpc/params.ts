import { isAddressInput, parseAddress } from "@qc/chain";
import type { AccessList, Address, Hex } from "viem";
import type { BlockSelector, CallRequest, LogFilter } from "../chain/node";
import { invalidParams } from "./errors";

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const LENIENT_QUANTITY = /^0x[0-9a-fA-F]+$/;
const DATA = /^0x([0-9a-fA-F]{2})*$/;

export function quantity(value: unknown, name: string): bigint {
  // Accept leading zeros: some clients send 0x01.
  if (typeof value === "string" && (QUANTITY.test(value) || LENIENT_QUANTITY.test(value))) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw invalidParams(`${name} must be a hex quantity`);
}

export function optionalQuantity(value: unknown, name: string): bigint | undefined {
  return value === undefined || value === null ? undefined : quantity(value, name);
}

export function data(value: unknown, name: string): Hex {
  if (typeof value === "string" && DATA.test(value)) return value.toLowerCase() as Hex;
  throw invalidParams(`${name} must be 0x-prefixed hex bytes`);
}

export function address(value: unknown, name: string): Address {
  if (!isAddressInput(value)) throw invalidParams(`${name} must be an address`);
  return parseAddress(value);
}

export function hash32(value: unknown, name: string): Hex {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase() as Hex;
  throw invalidParams(`${name} must be a 32-byte hash`);
}

/** Block tag, number, or EIP-1898 `{blockHash}` / `{blockNumber}`. Default `latest`. */
export function blockSelector(value: unknown): BlockSelector {
  if (value === undefined || value === null) return "latest";
  if (typeof value === "string") {
    if (value === "latest" || value === "pending") return value;
    // Instant finality on a devnet: safe and finalized are the head.
    if (value === "safe" || value === "finalized") return "latest";
    if (value === "earliest") return "earliest";
    return quantity(value, "block");
  }
  if (typeof value === "object") {
    const v = value as { blockHash?: unknown; blockNumber?: unknown };
    if (v.blockHash !== undefined) return { hash: hash32(v.blockHash, "blockHash") };
    if (v.blockNumber !== undefined) return blockSelector(v.blockNumber);
  }
  throw invalidParams("block must be a tag, a hex number or {blockHash}");
}

export function accessList(value: unknown): AccessList | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidParams("accessList must be an array");
  return value.map((item, i) => {
    const entry = item as { address?: unknown; storageKeys?: unknown };
    if (!Array.isArray(entry.storageKeys)) throw invalidParams(`accessList[${i}].storageKeys must be an array`);
    return {
      address: address(entry.address, `accessList[${i}].address`),
      storageKeys: entry.storageKeys.map((k) => hash32(k, "storageKey")),
    };
  });
}

export function callRequest(value: unknown): CallRequest {
  if (!value || typeof value !== "object") throw invalidParams("transaction object expected");
  const v = value as Record<string, unknown>;
  const input = v.input ?? v.data;
  if (v.input !== undefined && v.data !== undefined && v.input !== v.data) throw invalidParams("input and data differ");
  const request: CallRequest = {};
  if (v.from !== undefined && v.from !== null) request.from = address(v.from, "from");
  if (v.to !== undefined && v.to !== null) request.to = address(v.to, "to");
  if (input !== undefined && input !== null) request.data = data(input, "input");
  const value_ = optionalQuantity(v.value, "value");
  if (value_ !== undefined) request.value = value_;
  const gas = optionalQuantity(v.gas, "gas");
  if (gas !== undefined) request.gas = gas;
  const list = accessList(v.accessList);
  if (list) request.accessList = list;
  return request;
}

export function logFilter(value: unknown): LogFilter {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object") throw invalidParams("filter object expected");
  const v = value as Record<string, unknown>;
  const filter: LogFilter = {};
  if (v.blockHash !== undefined && v.blockHash !== null) {
    if (v.fromBlock !== undefined || v.toBlock !== undefined) throw invalidParams("blockHash excludes fromBlock/toBlock");
    filter.blockHash = hash32(v.blockHash, "blockHash");
  }
  if (v.address !== undefined && v.address !== null) {
    filter.addresses = (Array.isArray(v.address) ? v.address : [v.address]).map((a, i) => address(a, `address[${i}]`));
  }
  if (v.topics !== undefined && v.topics !== null) {
    if (!Array.isArray(v.topics) || v.topics.length > 4) throw invalidParams("topics must be an array of at most 4");
    filter.topics = v.topics.map((t, i) => {
      if (t === null) return null;
      if (Array.isArray(t)) return t.map((x) => hash32(x, `topics[${i}]`));
      return hash32(t, `topics[${i}]`);
    });
  }
  return filter;
}
