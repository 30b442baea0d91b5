// Problems to HTTP bodies, as the spec's web client reads them (docs/errors.md). The one place this happens.
import { Problem, problems, type FieldErrors } from '@fieldwork/service-kit/problems';

export interface HttpError {
  status: number;
  body: Record<string, unknown>;
}

/** The answer for a problem: fields or non_field_errors for 400, detail for 4xx, error_message + reference for 5xx. */
export function problemToHttp(problem: Problem, requestId: string): HttpError {
  const status = problem.status;
  if (status >= 500) return { status, body: { error_message: problem.message, reference: requestId } };
  if (status === 400) {
    return { status, body: problem.fields ? { ...problem.fields } : { non_field_errors: [problem.message] } };
  }
  return {
    status,
    body: problem.fields ? { detail: problem.message, changes: problem.fields } : { detail: problem.message },
  };
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Fastify's schema validation errors as DRF-style field errors. */
export function validationToProblem(errors: AjvError[], context: string): Problem {
  const fields: FieldErrors = {};
  const add = (field: string, message: string) => {
    (fields[field] ??= []).push(message);
  };
  for (const e of errors) {
    const path = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
    switch (e.keyword) {
      case 'required':
        add(
          path === '' ? String(e.params.missingProperty) : `${path}.${String(e.params.missingProperty)}`,
          'This field is required.',
        );
        break;
      case 'type': {
        // DRF's words for the scalar types the spec's clients know; the JSON type otherwise.
        const type = String(e.params.type);
        add(
          path || context,
          type.startsWith('integer')
            ? 'A valid integer is required.'
            : type === 'boolean'
              ? 'Must be a valid boolean.'
              : type.startsWith('number')
                ? 'A valid number is required.'
                : `Expected ${type}.`,
        );
        break;
      }
      case 'maxItems':
        add(path || context, `Ensure this field has no more than ${String(e.params.limit)} elements.`);
        break;
      case 'maximum':
        add(path || context, `Ensure this value is less than or equal to ${String(e.params.limit)}.`);
        break;
      case 'minimum':
        add(path || context, `Ensure this value is greater than or equal to ${String(e.params.limit)}.`);
        break;
      case 'maxLength':
        add(path || context, `Ensure this field has no more than ${String(e.params.limit)} characters.`);
        break;
      case 'minLength':
        add(path || context, 'This field may not be blank.');
        break;
      case 'enum':
        add(path || context, `Must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}.`);
        break;
      case 'additionalProperties':
        add(String(e.params.additionalProperty), 'Unknown field.');
        break;
      default:
        add(path || context, e.message ?? 'Invalid value.');
    }
  }
  if (context === 'params' || context === 'querystring') return problems.invalidFields(fields);
  return Object.keys(fields).length > 0 ? problems.invalidFields(fields) : problems.invalid('Invalid request body.');
}
