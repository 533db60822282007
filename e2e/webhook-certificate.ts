import fs from "node:fs";
import path from "node:path";
import { makeTestCertificate, type TestCertificate } from "../tests/helpers/tls-certificate";

/**
 * The self-signed certificate of the specs' HTTPS webhook receiver, one per run, kept in the
 * run's data directory: playwright.config.ts hands its file to the app as NODE_EXTRA_CA_CERTS
 * (how a deployment trusts a private CA), and the webhooks spec serves with it.
 */
export function webhookCertificate(): TestCertificate {
  const dir = path.resolve(process.env.E2E_DATA_DIR ?? ".data/e2e", "webhook-tls");
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  if (!fs.existsSync(certFile)) {
    const made = makeTestCertificate();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(keyFile, made.key);
    fs.writeFileSync(certFile, made.cert);
  }
  return { cert: fs.readFileSync(certFile, "utf8"), key: fs.readFileSync(keyFile, "utf8"), certFile };
}
