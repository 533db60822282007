import type { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { PushNotificationStore } from "@a2a-js/sdk/server";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { rememberSecret } from "@/server/core/secret-masking";
import { a2aPushConfigs } from "@/server/db/schema";
import { urlRefusal } from "@/server/egress";
import { generateWebhookSecret } from "@/server/webhooks";

type ConfigRow = typeof a2aPushConfigs.$inferSelect;

/** A config as checked, before it is sealed: the token is the given one or a generated one. */
export interface CheckedPushConfig {
  configId: string;
  url: string;
  token: string;
  authentication?: { scheme: string; credentials: string };
}

const TOKEN_MIN = 16;

/**
 * A client's config, checked before anything is stored or started: an https URL the webhooks'
 * egress rules accept, a token long enough to sign with (generated when `generateToken` and none
 * is given), credentials with their scheme. Any refusal is a JSON-RPC invalid-params error.
 */
export function checkPushConfig(
  app: AppContext,
  config: Pick<TaskPushNotificationConfig, "id" | "url" | "token" | "authentication">,
  generateToken: boolean,
): CheckedPushConfig {
  const refusal = urlRefusal(config.url ?? "", { allowlist: app.config.egressAllowlist, httpsOnly: true });
  if (refusal) throw new RequestMalformedError(`The push notification URL ${refusal}`);
  if (config.url.length > 2083) throw new RequestMalformedError("The push notification URL is longer than 2083");
  if (config.id && (config.id.length > 128 || !/^[A-Za-z0-9_.:-]+$/.test(config.id)))
    throw new RequestMalformedError("A push notification config id is 1-128 letters, digits, '_', '.', ':' or '-'");
  let token = config.token ?? "";
  if (!token && generateToken) token = generateWebhookSecret();
  if (token.length < TOKEN_MIN || token.length > 1024)
    throw new RequestMalformedError(
      `The push notification token signs every push (X-Service-Signature): it must be ${TOKEN_MIN}-1024 characters${generateToken ? " (omit it to have one generated)" : ""}`,
    );
  const auth = config.authentication;
  if (auth && (auth.scheme || auth.credentials)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(auth.scheme ?? "") || !auth.credentials)
      throw new RequestMalformedError("Push notification authentication needs a scheme (e.g. Bearer) and credentials");
    if (/[\r\n]/.test(auth.credentials) || auth.credentials.length > 4096)
      throw new RequestMalformedError("Push notification credentials are one line of at most 4096 characters");
  }
  return {
    configId: config.id || newId(),
    url: config.url,
    token,
    ...(auth?.credentials ? { authentication: { scheme: auth.scheme, credentials: auth.credentials } } : {}),
  };
}

/** A secret as it is shown after the response that set it: its last four characters. */
export const maskedSecret = (secret: string) => `…${secret.slice(-4)}`;

/**
 * The SDK's `PushNotificationStore`, durable and scoped to one project: the configs of a task,
 * with the token and credentials sealed (server/encryption). `load` shows both masked: they are
 * returned in full once, by the call that set them. The caller has checked that the task is one
 * of its agent's (task-handler.ts).
 */
export class PushConfigStore implements PushNotificationStore {
  constructor(
    private readonly app: AppContext,
    private readonly projectId: string,
    private readonly wireVersion: string,
  ) {}

  /** Saves a config the caller checked (`checkPushConfig`); one with the same id is replaced. */
  async saveChecked(taskId: string, config: CheckedPushConfig): Promise<void> {
    const c = a2aPushConfigs;
    rememberSecret(config.token);
    rememberSecret(config.authentication?.credentials);
    await this.app.db.transaction(async (tx) => {
      // A replaced config starts afresh: its queued push goes with it and the task's state is pushed to the new one.
      await tx.delete(c).where(and(this.scope(taskId), eq(c.configId, config.configId)));
      await tx.insert(c).values({
        id: newId(),
        projectId: this.projectId,
        taskId,
        configId: config.configId,
        url: config.url,
        wireVersion: this.wireVersion,
        sealedToken: this.app.secrets.seal(config.token),
        authScheme: config.authentication?.scheme ?? null,
        sealedCredentials: config.authentication ? this.app.secrets.seal(config.authentication.credentials) : null,
      });
    });
  }

  async save(taskId: string, _context: unknown, config: TaskPushNotificationConfig): Promise<void> {
    const checked = checkPushConfig(this.app, config, true);
    await this.saveChecked(taskId, checked);
    // The store contract: a config saved without an id learns its id through the object passed in.
    config.id = checked.configId;
    config.token = checked.token;
  }

  async load(taskId: string): Promise<TaskPushNotificationConfig[]> {
    const rows = await this.app.db
      .select()
      .from(a2aPushConfigs)
      .where(this.scope(taskId))
      .orderBy(asc(a2aPushConfigs.createdAt), asc(a2aPushConfigs.id));
    return rows.map((row) => this.masked(row));
  }

  async delete(taskId: string, _context: unknown, configId?: string): Promise<void> {
    await this.app.db
      .delete(a2aPushConfigs)
      .where(and(this.scope(taskId), eq(a2aPushConfigs.configId, configId ?? taskId)));
  }

  private scope(taskId: string) {
    return and(eq(a2aPushConfigs.projectId, this.projectId), eq(a2aPushConfigs.taskId, taskId));
  }

  private masked(row: ConfigRow): TaskPushNotificationConfig {
    return wireConfig(row.taskId, {
      configId: row.configId,
      url: row.url,
      token: maskedSecret(this.app.secrets.open(row.sealedToken)),
      ...(row.authScheme && row.sealedCredentials
        ? {
            authentication: {
              scheme: row.authScheme,
              credentials: maskedSecret(this.app.secrets.open(row.sealedCredentials)),
            },
          }
        : {}),
    });
  }
}

function wireConfig(taskId: string, config: CheckedPushConfig): TaskPushNotificationConfig {
  return {
    tenant: "",
    id: config.configId,
    taskId,
    url: config.url,
    token: config.token,
    authentication: config.authentication,
  };
}
