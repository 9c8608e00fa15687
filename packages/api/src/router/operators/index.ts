import { createRouter } from "../../trpc";
import { cancelJobProcedure } from "./cancel-job";
import { getOperatorProcedure } from "./get-operator";
import { getQueuesOverviewProcedure } from "./get-queues-overview";
import { listDaemonInstancesProcedure } from "./list-daemon-instances";
import { listFailedJobsProcedure } from "./list-failed-jobs";
import { logInOperatorProcedure, logInOperatorWithPasskeyProcedure } from "./log-in-operator";
import { logOutOperatorProcedure } from "./log-out-operator";
import {
  getOperatorSecuritySettingsProcedure,
  listOperatorPasskeysProcedure,
  operatorPasskeyRegistrationOptionsProcedure,
  registerOperatorPasskeyProcedure,
  removeOperatorPasskeyProcedure,
  updateOperatorSecuritySettingsProcedure,
} from "./operator-passkeys";
import { retryFailedJobProcedure } from "./retry-failed-job";

/** The operators' console (tRPC only, operator cookie): queues, daemons, failed jobs, the operator's passkeys. */
export const operatorsRouter = createRouter({
  login: logInOperatorProcedure,
  logout: logOutOperatorProcedure,
  me: getOperatorProcedure,
  queues: getQueuesOverviewProcedure,
  daemons: listDaemonInstancesProcedure,
  failedJobs: listFailedJobsProcedure,
  retryJob: retryFailedJobProcedure,
  cancelJob: cancelJobProcedure,
  loginPasskey: logInOperatorWithPasskeyProcedure,
  passkeyRegistrationOptions: operatorPasskeyRegistrationOptionsProcedure,
  registerPasskey: registerOperatorPasskeyProcedure,
  passkeys: listOperatorPasskeysProcedure,
  removePasskey: removeOperatorPasskeyProcedure,
  securitySettings: getOperatorSecuritySettingsProcedure,
  updateSecuritySettings: updateOperatorSecuritySettingsProcedure,
});
