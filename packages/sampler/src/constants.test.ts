import { describe, expect, it } from 'vitest';
import { AGGREGATORS, AGGREGATORS_BY_TYPE, BARCODE_FORMATS, FORM_SCHEMA_VERSION } from './constants.js';

describe('spec 001 §9 constants', () => {
  it('has form version 1.0 and the 19 barcode formats', () => {
    expect(FORM_SCHEMA_VERSION).toBe('1.0');
    expect(BARCODE_FORMATS).toHaveLength(19);
  });
  it('offers only known aggregators per type; date gets count, min, max', () => {
    for (const list of Object.values(AGGREGATORS_BY_TYPE)) for (const a of list) expect(AGGREGATORS).toContain(a);
    expect(AGGREGATORS_BY_TYPE.date).toEqual(['count', 'min', 'max']);
    expect(AGGREGATORS_BY_TYPE.choice).toEqual(['count']);
  });
});
