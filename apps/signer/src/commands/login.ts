import { readFileSync } from "node:fs";
import { Command } from "commander";
import { readSignerEnv } from "../env";
import { UsageError } from "../lib/errors";
import { writeProfile } from "../lib/profile";
import { createServiceClient, parseServiceUrl } from "../lib/service/service-client";
import { signerApi } from "../lib/service/signer-api";
import { signerPaths, unlockKeystore } from "../session";
import { print } from "../terminal";

const API_KEY = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;

function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read --ca ${path} (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`--ca ${path} holds no PEM certificate`);
  return pem;
}

export function loginCommand(): Command {
  return new Command("login")
    .description("store the service URL and API key (scope signer); the key is kept encrypted in the keystore")
    .requiredOption("--url <baseUrl>", "the service, e.g. https://localhost:8443 (plain http only for localhost)")
    .requiredOption("--key <keyId:secret>", "an API key with the signer scope, as the dashboard shows it once")
    .option("--ca <pem file>", "trust this certificate (the development server's self-signed one), TLS verification stays on")
    .addHelpText("after", '\nExample:\n  signer login --url https://localhost:8443 --key "$QC_TOKEN" --ca .data/tls/localhost-cert.pem')
    .action(async (options: { url: string; key: string; ca?: string }) => {
      const url = parseServiceUrl(options.url);
      if (!API_KEY.test(options.key)) throw new UsageError("--key must be <keyId>:<secret>");
      const ca = options.ca === undefined ? null : readCaFile(options.ca);
      const paths = signerPaths(readSignerEnv());
      const keystore = await unlockKeystore();
      const baseUrl = url.toString().replace(/\/+$/, "");
      // Proves the URL, the certificate and the key work before anything is stored.
      const api = signerApi(createServiceClient({ url: baseUrl, apiKey: options.key, ca }));
      const tenantId = await api.tenantId();
      // The signing queue needs the signer scope, which no integration key (write, admin) has:
      // a key without it is refused now rather than at the first enroll or review.
      await api.pendingTransactions({ pages: 1 });
      await keystore.update((contents) => {
        contents.apiKey = options.key;
      });
      keystore.close();
      writeProfile(paths.profile, { url: baseUrl, tenantId, ca });
      print(`Logged in to ${baseUrl} (tenant ${tenantId}). The API key is stored encrypted in the keystore.`);
    });
}
