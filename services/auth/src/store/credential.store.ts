// All SQL of API keys and integrations.
import type { Sql } from '@fieldwork/service-kit';

export interface ApiKeyRow {
  id: number;
  organization_id: number;
  name: string;
  prefix: string;
  key_hash: Buffer;
  created_by: number;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface IntegrationRow {
  id: number;
  organization_id: number;
  token: string;
  integration_type: string;
  verified: boolean;
  projects: number[];
  time_created: Date;
}

export class CredentialStore {
  constructor(private readonly sql: Sql) {}

  async addApiKey(k: {
    organization_id: number;
    name: string;
    prefix: string;
    key_hash: Buffer;
    created_by: number;
  }): Promise<ApiKeyRow> {
    const [row] = await this.sql<ApiKeyRow[]>`
      insert into api_keys (organization_id, name, prefix, key_hash, created_by)
      values (${k.organization_id}, ${k.name}, ${k.prefix}, ${k.key_hash}, ${k.created_by}) returning *`;
    return row!;
  }

  async apiKeys(organizationId: number): Promise<ApiKeyRow[]> {
    return this.sql<ApiKeyRow[]>`select * from api_keys where organization_id = ${organizationId} order by id`;
  }

  async apiKeyByPrefix(prefix: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.sql<ApiKeyRow[]>`select * from api_keys where prefix = ${prefix}`;
    return row;
  }

  /** Revokes a key; the revocation goes to the outbox (the gateways' revocation list) in the same statement. */
  async revokeApiKey(organizationId: number, prefix: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.sql<ApiKeyRow[]>`
      with revoked as (
        update api_keys set revoked_at = coalesce(revoked_at, now())
        where organization_id = ${organizationId} and prefix = ${prefix} returning *),
      queued as (insert into revocation_outbox (kind, ref) select 'key', prefix from revoked)
      select * from revoked`;
    await this.sql`select pg_notify('auth_revocations', '')`;
    return row;
  }

  /** Records a use at most once a minute per key. */
  async touchApiKey(id: number): Promise<void> {
    await this.sql`
      update api_keys set last_used_at = now()
      where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`;
  }

  async addIntegration(organizationId: number, token: string, type: string): Promise<IntegrationRow> {
    const [row] = await this.sql<IntegrationRow[]>`
      insert into integrations (organization_id, token, integration_type) values (${organizationId}, ${token}, ${type}) returning *`;
    return row!;
  }

  async integrations(organizationId: number): Promise<IntegrationRow[]> {
    return this.sql<IntegrationRow[]>`select * from integrations where organization_id = ${organizationId} order by id`;
  }

  async integration(organizationId: number, token: string): Promise<IntegrationRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(token)) return undefined;
    const [row] = await this.sql<IntegrationRow[]>`
      select * from integrations where organization_id = ${organizationId} and token = ${token}`;
    return row;
  }

  async setIntegrationProjects(id: number, projects: number[]): Promise<IntegrationRow> {
    const [row] = await this.sql<IntegrationRow[]>`
      update integrations set projects = ${projects}, time_updated = now() where id = ${id} returning *`;
    return row!;
  }

  async setIntegrationVerified(id: number, verified: boolean): Promise<IntegrationRow> {
    const [row] = await this.sql<IntegrationRow[]>`
      update integrations set verified = ${verified}, time_updated = now() where id = ${id} returning *`;
    return row!;
  }
}
