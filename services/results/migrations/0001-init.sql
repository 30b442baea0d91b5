-- The results schema; its tables arrive with the issue that builds this domain.
comment on schema results is 'Results metadata: shared item tokens and advanced results (spec 001 section 3)';
