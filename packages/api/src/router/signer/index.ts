import { createRouter } from "../../trpc";
import { enrollSignerKeysProcedure } from "./enroll-signer-keys";
import { listSignerKeysProcedure } from "./list-signer-keys";
import { listSigningRequestsProcedure } from "./list-signing-requests";
import { rejectTransactionProcedure } from "./reject-transaction";
import { submitSignatureProcedure } from "./submit-signature";

export const signerRouter = createRouter({
  enrollKeys: enrollSignerKeysProcedure,
  keyCounts: listSignerKeysProcedure,
  pendingTransactions: listSigningRequestsProcedure,
  submitSignature: submitSignatureProcedure,
  reject: rejectTransactionProcedure,
});
