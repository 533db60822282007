import { and, asc, eq } from "drizzle-orm";
import { BadRequestError, ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { slugify } from "@/server/core/slugs";
import type { Database } from "@/server/db";
import { vaultSecrets } from "@/server/db/schema";
import { urlRefusal, type AllowlistEntry } from "@/server/egress";
import type { SecretBox } from "@/server/secrets";
import type { SecretInput } from "./secret-input";
import type { VaultSecret } from "./vault-secret";

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
    if (!data.provider.key && input.secret.kind === "provider_key") {
      throw new BadRequestError("secret.data.provider.key is required for a provider_key secret", "missing_key", [{ path: "secret.data.provider.key", message: "required" }]);
    }
    const slug = slugify(input.header.name) || "secret";
    const now = new Date();
    // ON CONFLICT: concurrent creates of one name get the same 409 as sequential ones.
    const [row] = await this.ctx.db
      .insert(vaultSecrets)
      .values({ id: newId(), projectId, slug, ...this.columns(input, data), createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: [vaultSecrets.projectId, vaultSecrets.slug] })
      .returning();
    if (!row) throw new ConflictError(`A secret with slug "${slug}" already exists in this project; choose another name`, "slug_taken");
    return this.open(row);
  }

  async list(projectId: string): Promise<VaultSecret[]> {
    const rows = await this.ctx.db.select().from(vaultSecrets).where(eq(vaultSecrets.projectId, projectId)).orderBy(asc(vaultSecrets.createdAt), asc(vaultSecrets.id));
    return rows.map((row) => this.open(row));
  }

  async get(projectId: string, id: string): Promise<VaultSecret> {
    const [row] = await this.ctx.db.select().from(vaultSecrets).where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)));
    if (!row) throw new NotFoundError(`No secret ${id} in this project`, "secret_not_found");
    return this.open(row);
  }

  /** Replaces a secret's header and data; an omitted key keeps the stored one. The slug stays. */
  async update(projectId: string, id: string, input: SecretInput): Promise<VaultSecret> {
    const current = await this.get(projectId, id);
    if (current.kind !== input.secret.kind) {
      throw new BadRequestError(`secret.kind cannot change from ${current.kind} to ${input.secret.kind}; create a new secret`, "kind_change");
    }
    const data = this.checked(input);
    if (!data.provider.key && current.data.provider.key) data.provider.key = current.data.provider.key;
    const [row] = await this.ctx.db
      .update(vaultSecrets)
      .set({ ...this.columns(input, data), updatedAt: new Date() })
      .where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)))
      .returning();
    return this.open(row);
  }

  async delete(projectId: string, id: string): Promise<VaultSecret> {
    const current = await this.get(projectId, id);
    await this.ctx.db.delete(vaultSecrets).where(and(eq(vaultSecrets.projectId, projectId), eq(vaultSecrets.id, id)));
    return current;
  }

  /** A user-supplied URL is checked against the egress rules when it is saved (and again on connect). */
  private checked(input: SecretInput): VaultSecret["data"] {
    const data = structuredClone(input.secret.data);
    const url = data.provider.url;
    if (url) {
      const reason = urlRefusal(url, { allowlist: this.ctx.egressAllowlist });
      if (reason) {
        throw new BadRequestError(`secret.data.provider.url ${reason}; an operator can allow it with EGRESS_ALLOWLIST`, "egress_refused", [
          { path: "secret.data.provider.url", message: reason },
        ]);
      }
    }
    return data;
  }

  private columns(input: SecretInput, data: VaultSecret["data"]) {
    const key = data.provider.key ?? null;
    return {
      name: input.header.name,
      description: input.header.description ?? null,
      kind: input.secret.kind,
      provider: data.kind,
      sealed: this.ctx.secrets.seal(JSON.stringify(data)),
      keyTail: key ? key.slice(-4) : null,
    };
  }

  private open(row: Row): VaultSecret {
    return {
      id: row.id,
      projectId: row.projectId,
      slug: row.slug,
      name: row.name,
      description: row.description,
      kind: row.kind as VaultSecret["kind"],
      provider: row.provider,
      data: JSON.parse(this.ctx.secrets.open(row.sealed)) as VaultSecret["data"],
      keyTail: row.keyTail,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}

export function vaultOf(app: { db: Database; secrets: SecretBox; config: { egressAllowlist: AllowlistEntry[] } }): Vault {
  return new Vault({ db: app.db, secrets: app.secrets, egressAllowlist: app.config.egressAllowlist });
}
