-- Each rotated refresh token names the token it was exchanged for, so that a token presented again can be told
-- apart: its answer lost on the way (the token it was exchanged for was never used) or a copy replayed.
alter table refresh_tokens add column replaced_by bytea;
