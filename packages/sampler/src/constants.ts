// Constants of spec 001 §3 and §9, verbatim.

/** Form schema version. */
export const FORM_SCHEMA_VERSION = '1.0';

/** Question types of the sampler schema, plus instruction. */
export const ITEM_TYPES = [
  'empty',
  'binary',
  'choice',
  'open',
  'number',
  'date',
  'currency',
  'geotag',
  'calculated',
  'concatenation',
  'barcode',
  'image',
  'reference_project',
  'signature',
  'instruction',
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const BARCODE_FORMATS = [
  'UPC_A',
  'UPC_E',
  'EAN_13',
  'EAN_8',
  'RSS_14',
  'CODE_39',
  'CODE_93',
  'CODE_128',
  'ITF',
  'CODABAR',
  'QR_CODE',
  'DATA_MATRIX',
  'PDF_417',
  'CODE_39_MOD_43',
  'AZTEC',
  'INTERLEAVED_2_OF_5',
  'MAXICODE',
  'RSS_EXPANDED',
  'UPC_EAN_EXTENSION',
] as const;

export const AGGREGATORS = ['sum', 'avg', 'count', 'min', 'max', 'stddev', 'var'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

/** The aggregators each question type offers in results. */
export const AGGREGATORS_BY_TYPE: Partial<Record<ItemType, readonly Aggregator[]>> = {
  number: ['sum', 'count', 'stddev', 'avg', 'var'],
  currency: ['sum', 'count', 'stddev', 'avg', 'var'],
  geotag: ['sum', 'count', 'stddev', 'avg', 'var'],
  calculated: ['sum', 'count', 'stddev', 'avg', 'var'],
  barcode: ['sum', 'count', 'stddev', 'avg', 'var'],
  date: ['count', 'min', 'max'],
  binary: ['count'],
  choice: ['count'],
  open: ['count'],
  image: ['count'],
};

/** Responses: full fetch limit per request and filtered chunk page size. */
export const RESPONSE_FETCH_LIMIT = 5000;
export const RESPONSE_CHUNK_PAGE_SIZE = 50;
/** Location history keeps at most this many entries. */
export const GEOTAG_HISTORY_MAX = 10;
/** Duplicated question prefixes. */
export const DUPLICATE_NAME_PREFIX = 'Duplicate of ';
export const DUPLICATE_CODE_PREFIX = 'copy_of_';
/** Default results timing column and time zone. */
export const DEFAULT_TIMING_COLUMN = 'time_created';
export const DEFAULT_TIME_ZONE = 'UTC';
