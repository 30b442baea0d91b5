// Sampler schemas for validation, from the forms service, cached briefly (a live project's schema cannot change).
import type { forms } from '@fieldwork/proto';
import type { SchemaBody } from '@fieldwork/sampler';
import type { Ctx, FormsClient } from './deps.js';

const TTL_MS = 10_000;

export interface CachedSchema {
  doc: forms.SchemaDocument;
  body: SchemaBody;
}

export class SchemaCache {
  private readonly cache = new Map<number, { at: number; value: CachedSchema }>();

  constructor(private readonly forms: FormsClient) {}

  async get(schemaId: number, ctx: Ctx): Promise<CachedSchema> {
    const hit = this.cache.get(schemaId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const doc = await this.forms.getSchemaInternal({ schema_id: schemaId }, ctx);
    const value = { doc, body: JSON.parse(doc.body_json) as SchemaBody };
    if (this.cache.size > 5000) this.cache.clear();
    this.cache.set(schemaId, { at: Date.now(), value });
    return value;
  }
}
