import { createRouter } from "../../trpc";
import { enrollSignerKeysProcedure } from "./enroll-signer-keys";
import { listSignerKeysProcedure } from "./list-signer-keys";

export const signerRouter = createRouter({
  enrollKeys: enrollSignerKeysProcedure,
  keyCounts: listSignerKeysProcedure,
});
