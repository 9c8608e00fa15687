import { keccak256, type AbiParameter, type Hex } from "viem";
import type { CompiledContract } from "./compile";
import { loadArtifact } from "./load-artifact";
import { TEMPLATE_SOURCES, type TemplateId } from "./template-sources";

/** TOKEN: an ERC-20, added to the tenant's assets once deployed; OTHER: anything else. */
export const CONTRACT_TEMPLATE_KINDS = ["TOKEN", "OTHER"] as const;
export type ContractTemplateKind = (typeof CONTRACT_TEMPLATE_KINDS)[number];

/**
 * Checks beyond the ABI type that refuse arguments the contract would revert on (or that make
 * no sense), so a mistake costs a 400 instead of a failed deployment.
 */
export type ConstructorInputRule =
  | { kind: "string"; minLength: number; maxLength: number }
  | { kind: "integer"; min?: bigint; max?: bigint }
  | { kind: "address"; zeroAllowed: boolean };

export type ConstructorInput = {
  /** As in the ABI: the key of `constructorArgs`. */
  name: string;
  /** Solidity type as in the ABI (`uint256`, `address`, `string`, …). */
  type: string;
  description: string;
  /** Used when `constructorArgs` leaves the argument out; absent means required. */
  default?: string;
  rule?: ConstructorInputRule;
};

export type ContractTemplate = {
  id: string;
  name: string;
  version: string;
  description: string;
  kind: ContractTemplateKind;
  artifact: CompiledContract;
  /** keccak256 of the creation bytecode, pinned here in the repository (not read from the artifact). */
  bytecodeHash: Hex;
  /** In ABI order. */
  constructorInputs: readonly ConstructorInput[];
};

type InputDoc = Omit<ConstructorInput, "name" | "type">;

type TemplateDefinition = Omit<ContractTemplate, "id" | "artifact" | "constructorInputs"> & {
  id: TemplateId;
  inputs: Record<string, InputDoc>;
};

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** The only ABI types the argument validator understands; a template using another is a build error. */
const SUPPORTED_TYPE =
  /^(?:address|bool|string|bytes|bytes(?:[1-9]|[12][0-9]|3[0-2])|u?int(?:8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?)$/;

const TOKEN_NAME: InputDoc = {
  description: "the token's name, as `name()` returns it (1 to 64 characters)",
  rule: { kind: "string", minLength: 1, maxLength: 64 },
};
const TOKEN_SYMBOL: InputDoc = {
  description: "the token's ticker, as `symbol()` returns it (1 to 16 characters)",
  rule: { kind: "string", minLength: 1, maxLength: 16 },
};
const TOKEN_DECIMALS: InputDoc = {
  description: 'decimal places of one whole token, as a decimal string ("18" like Q, "6" like most fiat tokens); 0 to 36',
  rule: { kind: "integer", max: 36n },
};

// The pinned hashes below are the audited bytes: a change to a template's source or compiler
// settings changes its hash, fails test/contracts-templates.test.ts, and needs a new REVIEW.md
// entry and version before the hash here may be updated.
const DEFINITIONS: readonly TemplateDefinition[] = [
  {
    id: "erc20-fixed-supply",
    name: "Fixed-supply ERC-20",
    version: "1.0.0",
    description:
      "An ERC-20 token whose whole supply is minted once, at deployment, to one holder. Nobody has any privilege " +
      "afterwards: no owner, no minting, no burning, no pausing, no upgrade.",
    kind: "TOKEN",
    bytecodeHash: "0xec750c062e7420e66808f9dc8eaca13d37692e525a406da63fa9a6cec9e2867d",
    inputs: {
      tokenName: TOKEN_NAME,
      tokenSymbol: TOKEN_SYMBOL,
      tokenDecimals: TOKEN_DECIMALS,
      initialSupply: { description: "the whole supply in base units (10^decimals base units = 1 token), as a decimal string" },
      initialHolder: {
        description: "receives the whole supply; optional, default (or the zero address): the deploying wallet",
        default: ZERO_ADDRESS,
        rule: { kind: "address", zeroAllowed: true },
      },
    },
  },
  {
    id: "erc20-mint-burn",
    name: "Mintable and burnable ERC-20 with roles",
    version: "1.0.0",
    description:
      "An ERC-20 token with a managed supply: holders of MINTER_ROLE mint, holders of BURNER_ROLE burn their own " +
      "tokens (or others' within an allowance). The admin (DEFAULT_ADMIN_ROLE) grants and revokes the roles; the " +
      "last admin cannot be removed.",
    kind: "TOKEN",
    bytecodeHash: "0x9be9c2905c8144878d60f51108298ca04ec3e845ee199096d14dcb2e4e7778ce",
    inputs: {
      tokenName: TOKEN_NAME,
      tokenSymbol: TOKEN_SYMBOL,
      tokenDecimals: TOKEN_DECIMALS,
      initialSupply: { description: 'minted to the admin at deployment, in base units, as a decimal string ("0" for none)' },
      admin: {
        description:
          "holds DEFAULT_ADMIN_ROLE and receives the initial supply; grants MINTER_ROLE and BURNER_ROLE afterwards. " +
          "Optional, default (or the zero address): the deploying wallet",
        default: ZERO_ADDRESS,
        rule: { kind: "address", zeroAllowed: true },
      },
    },
  },
  {
    id: "timelock-vault",
    name: "Timelocked vault",
    version: "1.0.0",
    description:
      "Holds native Q for one beneficiary until a release time. Anyone can deposit (a plain transfer to the contract " +
      "is a deposit); only the beneficiary can withdraw, and only from the first block whose timestamp is at or " +
      "after the release time. Both are fixed at deployment.",
    kind: "OTHER",
    bytecodeHash: "0x1945dfe184d6b6c2aa2a2ba3bcce93d919ab6d2fd9beec5c4374e211a579628a",
    inputs: {
      vaultBeneficiary: {
        description: "the only address that can withdraw; receives the whole balance (not the zero address)",
        rule: { kind: "address", zeroAllowed: false },
      },
      vaultReleaseTime: {
        description:
          "Unix time in seconds (not milliseconds), as a decimal string, from which the beneficiary can withdraw; at " +
          "most 253402300799 (9999-12-31T23:59:59Z)",
        // The upper bound catches a time given in milliseconds, which would lock the value for millennia.
        rule: { kind: "integer", min: 1n, max: 253_402_300_799n },
      },
    },
  },
];

/** The ABI's constructor inputs joined with their documentation; any gap between the two is a build error. */
function constructorInputsOf(definition: TemplateDefinition, artifact: CompiledContract): ConstructorInput[] {
  const constructor = artifact.abi.find((item) => item.type === "constructor");
  const abiInputs: readonly AbiParameter[] = constructor && "inputs" in constructor ? constructor.inputs : [];
  const documented = new Set(Object.keys(definition.inputs));
  const inputs = abiInputs.map((parameter, index) => {
    const name = parameter.name;
    if (!name) throw new Error(`${definition.id}: constructor input ${index} has no name`);
    if (!SUPPORTED_TYPE.test(parameter.type))
      throw new Error(`${definition.id}: constructor input ${name} has unsupported type ${parameter.type}`);
    const doc = definition.inputs[name];
    if (!doc) throw new Error(`${definition.id}: constructor input ${name} is not documented`);
    documented.delete(name);
    return { name, type: parameter.type, ...doc };
  });
  if (documented.size > 0) throw new Error(`${definition.id}: documented inputs not in the ABI: ${[...documented].join(", ")}`);
  return inputs;
}

function buildTemplate(definition: TemplateDefinition): ContractTemplate {
  const source = TEMPLATE_SOURCES.find((entry) => entry.id === definition.id)!;
  const artifactFile = source.artifactFile;
  const artifact = loadArtifact(artifactFile);
  if (artifact.contractName !== source.contractName) throw new Error(`${definition.id}: ${artifactFile} holds ${artifact.contractName}`);
  // Fail closed at load: bytes on disk that are not the pinned ones are never offered.
  const actual = keccak256(artifact.bytecode);
  if (actual !== definition.bytecodeHash || artifact.bytecodeKeccak256 !== definition.bytecodeHash) {
    throw new Error(`${definition.id}: artifact ${artifactFile} has bytecode hash ${actual}, pinned ${definition.bytecodeHash}`);
  }
  return Object.freeze({
    id: definition.id,
    name: definition.name,
    version: definition.version,
    description: definition.description,
    kind: definition.kind,
    artifact,
    bytecodeHash: definition.bytecodeHash,
    constructorInputs: Object.freeze(constructorInputsOf(definition, artifact)),
  });
}

function buildCatalog(): readonly ContractTemplate[] {
  const missing = TEMPLATE_SOURCES.filter((source) => !DEFINITIONS.some((d) => d.id === source.id));
  if (missing.length > 0) throw new Error(`templates without a catalog entry: ${missing.map((m) => m.id).join(", ")}`);
  return Object.freeze(DEFINITIONS.map(buildTemplate));
}

/** The audited templates shipped with the service (CONTRACT §8), in listing order. */
export const CONTRACT_TEMPLATES: readonly ContractTemplate[] = buildCatalog();

const BY_ID = new Map(CONTRACT_TEMPLATES.map((template) => [template.id, template]));

/** The template with this id, or undefined. */
export function findContractTemplate(id: string): ContractTemplate | undefined {
  return BY_ID.get(id);
}
