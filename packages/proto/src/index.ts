// Re-exports the code ts-proto generates from /proto into ./gen at build time.
export * as common from './gen/common.js';
export * as auth from './gen/auth.js';
export * as projects from './gen/projects.js';
export * as forms from './gen/forms.js';
export * as responses from './gen/responses.js';
export * as results from './gen/results.js';
export * as views from './gen/views.js';
export * as exports_ from './gen/exports.js';
export { toFieldMessages, fromFieldMessages } from './field-errors.js';
