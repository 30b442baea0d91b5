// The form model (spec 001 §3-§5, §9), pure: shared by the browser (live form, builder) and the services.
export * from './constants.js';
export * from './schema.js';
export * from './items.js';
export * from './builder.js';
export * from './conditions.js';
export * from './record.js';
export * from './concatenation.js';
export * from './answer-text.js';
export * from './formula/index.js';
export * from './calculation.js';
export * from './answers.js';
export * from './patterns.js';
export * from './filters.js';
export * from './limits.js';
export * from './form-rules.js';
export * from './cascade.js';
