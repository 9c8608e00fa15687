import type { CompiledContract } from "./compile";
import { loadArtifact } from "./load-artifact";

export {
  compileContract,
  compileContractReport,
  COMPILER_SETTINGS,
  SOLC_VERSION,
  type CompiledContract,
  type CompileReport,
} from "./compile";
export {
  CONTRACT_TEMPLATE_KINDS,
  CONTRACT_TEMPLATES,
  findContractTemplate,
  type ConstructorInput,
  type ConstructorInputRule,
  type ContractTemplate,
  type ContractTemplateKind,
} from "./templates";
export { TEMPLATE_SOURCES, OTHER_ARTIFACT_SOURCES, type TemplateId } from "./template-sources";
export { loadArtifact } from "./load-artifact";

/**
 * The test ERC-20 (`contracts/QuantumTestToken.sol`), compiled with the pinned solc.
 * Constructor: `(string name, string symbol, uint8 decimals, uint256 initialSupply)`.
 * A test recompiles the source and compares.
 */
export const QUANTUM_TEST_TOKEN: CompiledContract = loadArtifact("QuantumTestToken.json");
export {
  encodeTemplateDeployment,
  InvalidConstructorArgumentsError,
  TemplateBytecodeMismatchError,
  type CanonicalConstructorArgs,
  type ConstructorArgumentFieldError,
  type EncodeTemplateDeploymentParameters,
  type EncodeTemplateDeploymentReturnType,
  type InvalidConstructorArgumentsErrorType,
  type TemplateBytecodeMismatchErrorType,
} from "./encode-template-deployment";
export {
  buildQuantumDeployment,
  type BuildQuantumDeploymentParameters,
  type BuildQuantumDeploymentReturnType,
} from "./build-quantum-deployment";
