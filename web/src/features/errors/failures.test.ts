import { describe, expect, it } from 'vitest';
import { failure, FAILURES } from './failures';

describe('failure', () => {
  it('shows friendlier words for the known backend messages', () => {
    expect(failure({ status: 400, data: { status: ['State is invalid'] } }, FAILURES.status)).toBe(
      'Before changing project status to live, you will need to add at least one question to your form.',
    );
    expect(
      failure(
        { status: 400, data: { project_hierarchy: ["You can't delete levels that already have responses."] } },
        FAILURES.hierarchy,
      ),
    ).toBe('Level you tried to delete has responses. It cannot be deleted now.');
  });
  it('prefers the first non_field_errors entry, else the default', () => {
    expect(
      failure({ status: 400, data: { non_field_errors: ['Geotag is required', 'x'] } }, FAILURES.projectSave),
    ).toBe('Geotag is required');
    expect(failure({ status: 500, data: 'oops' }, FAILURES.siteCreate)).toBe('Site could not be created!');
    expect(failure({ status: 'FETCH_ERROR', error: 'x' }, FAILURES.siteCreate)).toBe(
      'Please connect to internet and try again.',
    );
  });
});
