-- Issue 18: a response and a media file remember the collection link they came through (per-link quotas; a
-- respondent attaches files to their own response only), and uploads never completed are found by age (they expire).
alter table responses add column survey_id bigint;
create index responses_survey_idx on responses (survey_id) where survey_id is not null;

alter table media add column survey_id bigint;
create index media_survey_idx on media (survey_id) where survey_id is not null;
create index media_pending_idx on media (created_at) where status = 'pending';
