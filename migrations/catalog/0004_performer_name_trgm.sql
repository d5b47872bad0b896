-- Performer names found by search with pg_trgm's word similarity, off an index.
create index performer_name_trgm on performer using gin (lower(name) public.gin_trgm_ops);
