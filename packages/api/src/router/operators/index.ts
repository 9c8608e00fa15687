import { createRouter } from "../../trpc";
import { cancelJobProcedure } from "./cancel-job";
import { getOperatorProcedure } from "./get-operator";
import { getQueuesOverviewProcedure } from "./get-queues-overview";
import { listDaemonInstancesProcedure } from "./list-daemon-instances";
import { listFailedJobsProcedure } from "./list-failed-jobs";
import { logInOperatorProcedure } from "./log-in-operator";
import { logOutOperatorProcedure } from "./log-out-operator";
import { retryFailedJobProcedure } from "./retry-failed-job";

/** The operators' console (tRPC only, operator cookie): queues, daemons, failed jobs. */
export const operatorsRouter = createRouter({
  login: logInOperatorProcedure,
  logout: logOutOperatorProcedure,
  me: getOperatorProcedure,
  queues: getQueuesOverviewProcedure,
  daemons: listDaemonInstancesProcedure,
  failedJobs: listFailedJobsProcedure,
  retryJob: retryFailedJobProcedure,
  cancelJob: cancelJobProcedure,
});
