-- An export asks which questions were answered in a repeat other than the first ('0'): this partial index holds only
-- the responses that have such a repeat, so the question reads those rows and not every response of the form.
create index if not exists responses_with_repeats_idx on responses (project_id, schema_id) where (data - '0') <> '{}'::jsonb;
