import { and, asc, eq } from "drizzle-orm";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { slugify } from "@/server/core/slugs";
import type { Database } from "@/server/db";
import { vaultSecrets } from "@/server/db/schema";
import { urlRefusal, type AllowlistEntry } from "@/server/egress";
import type { SecretBox } from "@/server/encryption";
import type { SecretData, SecretInput } from "./secret-input";
import type { VaultSecret } from "./vault-secret";
import { rememberSecret } from "@/server/core/secret-masking";
import { recordAudit } from "@/server/audit";

export interface VaultContext {
  db: Database;
  secrets: SecretBox;
  egressAllowlist: AllowlistEntry[];
}

type Row = typeof vaultSecrets.$inferSelect;

/**
 * The project vault. A secret's data (key, URL, models) is sealed as one JSON value; only the
 * slug, names, kind, provider and the key's last four characters are stored in the clear.
 */
export class Vault {
  constructor(private readonly ctx: VaultContext) {}

  async create(projectId: string, input: SecretInput): Promise<VaultSecret> {
    const data = this.checked(input);
    if (!credentialOf(data) && input.secret.kind !== "custom_provider") {
      const [path, detail, code] =
        input.secret.kind === "secret"
          ? ([
              "secret.data.value",
              "secret.data.value is required when creating a plain secret",
              "missing_value",
            ] as const)
          : ([
              "secret.data.provider.key",
              "secret.data.provider.key is required for a provider_key secret",
              "missing_key",
            ] as const);
      throw new BadRequestError(detail, code, [{ path, message: "required" }]);
    }
    const slug = slugify(input.header.name) || "secret";
    const now = new Date();
    // ON CONFLICT: concurrent creates of one name get the same 409 as sequential ones.
    const row = await this.ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(vaultSecrets)
        .values({ id: newId(), projectId, slug, ...this.columns(input, data), createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: [vaultSecrets.projectId, vaultSecrets.slug] })
        .returning();
      if (!inserted)
        throw new ConflictError(
          `A secret with slug "${slug}" already exists in this project; choose another name`,
          "slug_taken",
        ).structured({ conflict: { slug } });
      await recordAudit(tx, { ...auditTarget(inserted), action: "secret.created", after: auditView(inserted) });
      return inserted;
    });
    return this.open(row);
  }

  async list(projectId: string): Promise<VaultSecret[]> {
    const rows = await this.ctx.db
      .select()
      .from(vaultSecrets)
      .where(eq(vaultSecrets.projectId, projectId))
      .orderBy(asc(vaultSecrets.createdAt), asc(vaultSecrets.id));
    return rows.map((row) => this.open(row));
  }

  async get(projectId: string, id: string): Promise<VaultSecret> {
    const [row] = await this.ctx.db
      .select()
      .from(vaultSecrets)
      .where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)));
    if (!row) throw new NotFoundError(`No secret ${id} in this project`, "secret_not_found");
    return this.open(row);
  }

  /** Replaces a secret's header and data; an omitted key or value keeps the stored one. The slug stays. */
  async update(projectId: string, id: string, input: SecretInput): Promise<VaultSecret> {
    const current = await this.get(projectId, id);
    if (current.kind !== input.secret.kind) {
      throw new BadRequestError(
        `secret.kind cannot change from ${current.kind} to ${input.secret.kind}; create a new secret`,
        "kind_change",
      );
    }
    const data = withCredential(this.checked(input), credentialOf(current.data));
    const row = await this.ctx.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(vaultSecrets)
        .where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)))
        .for("update");
      const [updated] = await tx
        .update(vaultSecrets)
        .set({ ...this.columns(input, data), updatedAt: new Date() })
        .where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)))
        .returning();
      if (!updated) throw new NotFoundError(`No secret ${id} in this project`, "secret_not_found");
      await recordAudit(tx, {
        ...auditTarget(updated),
        action: "secret.updated",
        // A changed key or value shows only as a changed tail and `credential_changed`.
        before: auditView(before),
        after: { ...auditView(updated), credential_changed: before?.sealed !== updated.sealed },
      });
      return updated;
    });
    return this.open(row);
  }

  async delete(projectId: string, id: string): Promise<VaultSecret> {
    const current = await this.get(projectId, id);
    await this.ctx.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(vaultSecrets)
        .where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)))
        .returning();
      if (deleted)
        await recordAudit(tx, { ...auditTarget(deleted), action: "secret.deleted", before: auditView(deleted) });
    });
    return current;
  }

  /**
   * What the schema leaves to the vault: an empty plain value is refused (omitting it is how an
   * update keeps it), and a user-supplied URL is checked against the egress rules when it is saved
   * (and again on connect).
   */
  private checked(input: SecretInput): SecretData {
    const data = structuredClone(input.secret.data);
    if (!("provider" in data)) {
      if (data.value === "")
        throw new BadRequestError(
          "secret.data.value must not be empty; omit it on update to keep the stored value",
          "empty_value",
          [{ path: "secret.data.value", message: "empty" }],
        );
      return data;
    }
    const url = data.provider.url;
    if (url) {
      const reason = urlRefusal(url, { allowlist: this.ctx.egressAllowlist });
      if (reason) {
        throw new BadRequestError(
          `secret.data.provider.url ${reason}; an operator can allow it with EGRESS_ALLOWLIST`,
          "egress_refused",
          [{ path: "secret.data.provider.url", message: reason }],
        );
      }
    }
    return data;
  }

  private columns(input: SecretInput, data: SecretData) {
    const credential = credentialOf(data);
    const plain = input.secret.kind === "secret";
    return {
      name: input.header.name,
      description: input.header.description ?? null,
      kind: input.secret.kind,
      provider: "provider" in data ? data.kind : null,
      sealed: this.ctx.secrets.seal(JSON.stringify(data)),
      // A short plain value (a PIN) would be mostly shown by its tail, so it shows none.
      keyTail: credential && (!plain || credential.length >= MIN_PLAIN_LENGTH_FOR_HINT) ? credential.slice(-4) : null,
    };
  }

  private open(row: Row): VaultSecret {
    const data = JSON.parse(this.ctx.secrets.open(row.sealed)) as SecretData;
    rememberSecret(credentialOf(data));
    // The row's kind, provider and sealed data were written together by `columns`.
    return {
      id: row.id,
      projectId: row.projectId,
      slug: row.slug,
      name: row.name,
      description: row.description,
      kind: row.kind,
      provider: row.provider,
      data,
      keyTail: row.keyTail,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    } as VaultSecret;
  }
}

const MIN_PLAIN_LENGTH_FOR_HINT = 12;

/** The key or value a secret's data holds, if any. */
function credentialOf(data: SecretData): string | null {
  return ("provider" in data ? data.provider.key : data.value) || null;
}

/** `data` with its key or value set to `stored` when the input omitted it. */
function withCredential(data: SecretData, stored: string | null): SecretData {
  if (credentialOf(data) || !stored) return data;
  return "provider" in data ? { ...data, provider: { ...data.provider, key: stored } } : { value: stored };
}

export function vaultOf(app: {
  db: Database;
  secrets: SecretBox;
  config: { egressAllowlist: AllowlistEntry[] };
}): Vault {
  return new Vault({ db: app.db, secrets: app.secrets, egressAllowlist: app.config.egressAllowlist });
}

/** Provider keys and custom providers are the project's provider connections; plain secrets are secrets. */
function auditTarget(row: Row) {
  return {
    projectId: row.projectId,
    targetType: row.kind === "secret" ? "secret" : "provider_connection",
    targetId: row.id,
  };
}

/** What the audit log keeps of a secret: its names and kind, never the sealed data. */
function auditView(row: Row | undefined) {
  if (!row) return undefined;
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    kind: row.kind,
    provider: row.provider,
    tail: row.keyTail,
  };
}
