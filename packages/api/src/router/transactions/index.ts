import { createRouter } from "../../trpc";
import { cancelTransactionProcedure } from "./cancel-transaction";
import { createTransactionProcedure } from "./create-transaction";
import { createTransactionBatchProcedure } from "./create-transaction-batch";
import { getTransactionProcedure } from "./get-transaction";
import { getTransactionEvidenceProcedure } from "./get-transaction-evidence";
import { listTransactionEventsProcedure } from "./list-transaction-events";
import { listTransactionsProcedure } from "./list-transactions";
import { simulateTransactionProcedure } from "./simulate-transaction";
import { speedUpTransactionProcedure } from "./speed-up-transaction";

export const transactionsRouter = createRouter({
  create: createTransactionProcedure,
  createBatch: createTransactionBatchProcedure,
  simulate: simulateTransactionProcedure,
  list: listTransactionsProcedure,
  get: getTransactionProcedure,
  evidence: getTransactionEvidenceProcedure,
  cancel: cancelTransactionProcedure,
  speedUp: speedUpTransactionProcedure,
  events: listTransactionEventsProcedure,
});
