import { encodeDeployData, keccak256, type Abi, type Hex } from "viem";
import { BaseError } from "../errors/base";
import { isAddressInput, parseAddress } from "../protocol/address";
import type { ConstructorInput, ContractTemplate } from "./templates";

/** Constructor arguments in canonical form: integers as decimal strings, addresses lower-case, bytes lower-case hex. */
export type CanonicalConstructorArgs = Record<string, string | boolean>;

export type ConstructorArgumentFieldError = { path: string; message: string };

export type InvalidConstructorArgumentsErrorType = InvalidConstructorArgumentsError & { name: "InvalidConstructorArgumentsError" };

/** `constructorArgs` does not fit the template's constructor; `fields` names every offending argument. */
export class InvalidConstructorArgumentsError extends BaseError {
  readonly templateId: string;
  readonly fields: ConstructorArgumentFieldError[];
  constructor({ templateId, fields }: { templateId: string; fields: ConstructorArgumentFieldError[] }) {
    const first = fields[0];
    super(first ? `${first.path}: ${first.message}` : "constructorArgs: invalid", {
      metaMessages: fields.slice(1).map((field) => `${field.path}: ${field.message}`),
      name: "InvalidConstructorArgumentsError",
    });
    this.templateId = templateId;
    this.fields = fields;
  }
}

export type TemplateBytecodeMismatchErrorType = TemplateBytecodeMismatchError & { name: "TemplateBytecodeMismatchError" };

/** The template's bytecode in memory does not hash to the pinned value: nothing may be deployed from it. */
export class TemplateBytecodeMismatchError extends BaseError {
  constructor({ templateId, expected, actual }: { templateId: string; expected: Hex; actual: Hex }) {
    super(`Template ${templateId} bytecode hashes to ${actual}, pinned ${expected}.`, { name: "TemplateBytecodeMismatchError" });
  }
}

export type EncodeTemplateDeploymentParameters = {
  template: ContractTemplate;
  /** As the client sent it (parsed JSON) or as stored: validated either way. */
  constructorArgs: unknown;
};

export type EncodeTemplateDeploymentReturnType = {
  /** Creation bytecode ‖ ABI-encoded constructor arguments: the deployment's `data`. */
  data: Hex;
  constructorArgs: CanonicalConstructorArgs;
  /** keccak256 of the creation bytecode (equal to the pinned `template.bytecodeHash`). */
  bytecodeHash: Hex;
};

const MAX_STRING_BYTES = 1024;
const DECIMAL_UINT = /^(?:0|[1-9][0-9]*)$/;
const DECIMAL_INT = /^-?(?:0|[1-9][0-9]*)$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const encoder = new TextEncoder();
// An unpaired surrogate has no UTF-8 encoding: the stored arguments and the encoded bytes would disagree.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

type Parsed = { ok: true; canonical: string | boolean; value: unknown } | { ok: false; message: string };

/**
 * Validates constructor arguments against the template's ABI and its rules, then encodes the
 * creation data with viem. Pure: the same template and arguments always give the same bytes,
 * which is what lets the service and the signer each rebuild a deployment from the stored intent.
 * Throws `InvalidConstructorArgumentsError` (every bad argument named as `constructorArgs.<name>`)
 * or `TemplateBytecodeMismatchError`.
 */
export function encodeTemplateDeployment({
  template,
  constructorArgs,
}: EncodeTemplateDeploymentParameters): EncodeTemplateDeploymentReturnType {
  const bytecodeHash = keccak256(template.artifact.bytecode);
  if (bytecodeHash !== template.bytecodeHash)
    throw new TemplateBytecodeMismatchError({ templateId: template.id, expected: template.bytecodeHash, actual: bytecodeHash });
  const { canonical, values } = parseConstructorArgs(template, constructorArgs);
  const data = encodeDeployData({ abi: template.artifact.abi as Abi, bytecode: template.artifact.bytecode, args: values } as Parameters<
    typeof encodeDeployData
  >[0]);
  return { data, constructorArgs: canonical, bytecodeHash };
}

function parseConstructorArgs(template: ContractTemplate, input: unknown): { canonical: CanonicalConstructorArgs; values: unknown[] } {
  const fail = (fields: ConstructorArgumentFieldError[]) => new InvalidConstructorArgumentsError({ templateId: template.id, fields });
  if (input === undefined && template.constructorInputs.every((i) => i.default !== undefined)) input = {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw fail([{ path: "constructorArgs", message: "expected an object of constructor arguments keyed by name" }]);
  }
  const args = input as Record<string, unknown>;
  const fields: ConstructorArgumentFieldError[] = [];
  const known = new Set(template.constructorInputs.map((i) => i.name));
  for (const key of Object.keys(args)) {
    if (!known.has(key)) {
      const expected = template.constructorInputs.map((i) => i.name).join(", ") || "none";
      fields.push({ path: `constructorArgs.${key}`, message: `not a constructor argument of ${template.id} (expected: ${expected})` });
    }
  }
  const canonical: CanonicalConstructorArgs = {};
  const values: unknown[] = [];
  for (const constructorInput of template.constructorInputs) {
    const path = `constructorArgs.${constructorInput.name}`;
    const raw = Object.hasOwn(args, constructorInput.name) ? args[constructorInput.name] : constructorInput.default;
    if (raw === undefined) {
      fields.push({ path, message: `required (${constructorInput.type})` });
      continue;
    }
    const parsed = parseArgument(constructorInput, raw);
    if (!parsed.ok) {
      fields.push({ path, message: parsed.message });
      continue;
    }
    canonical[constructorInput.name] = parsed.canonical;
    values.push(parsed.value);
  }
  if (fields.length > 0) throw fail(fields);
  return { canonical, values };
}

function parseArgument(input: ConstructorInput, raw: unknown): Parsed {
  const { type, rule } = input;
  const integer = /^(u?)int([0-9]*)$/.exec(type);
  if (integer) {
    const unsigned = integer[1] === "u";
    const bits = Number(integer[2] || "256");
    const expected = `expected a decimal ${type} string`;
    if (typeof raw !== "string" || raw.length > 80 || !(unsigned ? DECIMAL_UINT : DECIMAL_INT).test(raw) || raw === "-0")
      return { ok: false, message: expected };
    const value = BigInt(raw);
    const min = unsigned ? 0n : -(2n ** BigInt(bits - 1));
    const max = unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
    if (value < min || value > max) return { ok: false, message: `out of range for ${type} (${min} to ${max})` };
    if (rule?.kind === "integer") {
      if (rule.min !== undefined && value < rule.min) return { ok: false, message: `must be at least ${rule.min}` };
      if (rule.max !== undefined && value > rule.max) return { ok: false, message: `must be at most ${rule.max}` };
    }
    return { ok: true, canonical: value.toString(), value };
  }
  if (type === "address") {
    if (!isAddressInput(raw))
      return { ok: false, message: "expected an address: 40 hex digits with optional 0x; mixed case must pass EIP-55" };
    const address = parseAddress(raw);
    if (rule?.kind === "address" && !rule.zeroAllowed && address === ZERO_ADDRESS)
      return { ok: false, message: "must not be the zero address" };
    return { ok: true, canonical: address, value: address };
  }
  if (type === "bool") {
    if (typeof raw !== "boolean") return { ok: false, message: "expected true or false" };
    return { ok: true, canonical: raw, value: raw };
  }
  if (type === "string") {
    if (typeof raw !== "string") return { ok: false, message: "expected a string" };
    if (LONE_SURROGATE.test(raw)) return { ok: false, message: "must be well-formed Unicode (no unpaired surrogate)" };
    // Control characters have no place in a name or symbol and are how log and terminal injection starts.
    if (hasControlCharacter(raw)) return { ok: false, message: "must not contain control characters (U+0000–U+001F, U+007F)" };
    if (encoder.encode(raw).length > MAX_STRING_BYTES) return { ok: false, message: `must be at most ${MAX_STRING_BYTES} bytes of UTF-8` };
    if (rule?.kind === "string") {
      const length = [...raw].length;
      if (length < rule.minLength || length > rule.maxLength)
        return { ok: false, message: `must be ${rule.minLength} to ${rule.maxLength} characters` };
    }
    return { ok: true, canonical: raw, value: raw };
  }
  const fixedBytes = /^bytes([0-9]+)$/.exec(type);
  if (type === "bytes" || fixedBytes) {
    const size = fixedBytes ? Number(fixedBytes[1]) : undefined;
    const expected = size === undefined ? "expected 0x-prefixed hex bytes" : `expected 0x followed by ${size * 2} hex digits (${type})`;
    if (typeof raw !== "string" || raw.length > 2 + 2 * MAX_STRING_BYTES || !HEX_BYTES.test(raw)) return { ok: false, message: expected };
    if (size !== undefined && raw.length !== 2 + size * 2) return { ok: false, message: expected };
    const hex = raw.toLowerCase() as Hex;
    return { ok: true, canonical: hex, value: hex };
  }
  // templates.ts refuses a template with any other constructor type at load.
  return { ok: false, message: `unsupported constructor type ${type}` };
}
