import { createRouter } from "../../trpc";
import { createCredential } from "./create-credential";
import { listCredentials } from "./list-credentials";
import { revokeCredential } from "./revoke-credential";
import { rotateCredential } from "./rotate-credential";

export const credentialsRouter = createRouter({
  list: listCredentials,
  rotate: rotateCredential,
  create: createCredential,
  revoke: revokeCredential,
});
