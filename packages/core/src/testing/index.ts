// What other packages' tests and benches import from @qc/core/testing (core's own tests import the modules).
export { createKeyFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "./fixtures";
export { createMemberFixture, MEMBER_FIXTURE_PASSWORD } from "./member-fixtures";
export { createTestServiceDeps } from "./service-deps";
export {
  createReleasedTransferFixture,
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TransferWalletFixture,
} from "./transfer-fixtures";
export { createOperator } from "../operators/create-operator";
export { insertDepositFixture, type DepositFixtureInput } from "./deposit-fixtures";
