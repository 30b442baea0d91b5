-- The responses schema; its tables arrive with the issue that builds this domain.
comment on schema responses is 'Responses, their versions and the outbox to JetStream (spec 001 section 3 Response)';
