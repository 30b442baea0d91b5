// The form model (spec 001 §3, §9). This package grows with the form-builder issue: schema types, validity,
// conditions, the formula language. It starts with the constants of the spec that both sides already need.
export * from './constants.js';
export * from './schema.js';
