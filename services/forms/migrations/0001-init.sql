-- The forms schema; its tables arrive with the issue that builds this domain.
comment on schema forms is 'Sampler schemas, languages and form conversions (spec 001 section 3)';
