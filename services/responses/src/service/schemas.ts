// Sampler schemas for validation, from the forms service, cached briefly (a live project's schema cannot change).
import { LRUCache } from 'lru-cache';
import type { forms } from '@fieldwork/proto';
import type { SchemaBody } from '@fieldwork/sampler';
import type { Ctx, FormsClient } from './deps.js';

const TTL_MS = 10_000;
/** Forms kept at once, by the size of their JSON: a form may be 16 MiB, so a count alone would not bound memory. */
export const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export interface CachedSchema {
  doc: forms.SchemaDocument;
  body: SchemaBody;
}

export class SchemaCache {
  // Least recently used forms go first; one larger than the whole cache is used and not kept.
  private readonly cache = new LRUCache<number, CachedSchema>({
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: (v) => Math.max(1, v.doc.body_json.length),
    ttl: TTL_MS,
  });

  constructor(private readonly forms: FormsClient) {}

  async get(schemaId: number, ctx: Ctx): Promise<CachedSchema> {
    const hit = this.cache.get(schemaId);
    if (hit) return hit;
    const doc = await this.forms.getSchemaInternal({ schema_id: schemaId }, ctx);
    const value = { doc, body: JSON.parse(doc.body_json) as SchemaBody };
    this.cache.set(schemaId, value);
    return value;
  }

  /** Bytes of the forms held now. */
  get heldBytes(): number {
    return this.cache.calculatedSize;
  }
}
