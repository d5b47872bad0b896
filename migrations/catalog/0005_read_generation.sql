-- Generations of the read models, for the catalog's in-process read cache (read_cache.rs).
--
-- Every write to a table the cached reads use bumps the generation of the scopes it touches,
-- in the writer's own transaction (statement triggers with transition tables, so the live
-- projection, the bulk seed, a rebuild and any hand-written SQL are all covered). A cached
-- answer is served only while the generations it was computed under are unchanged.
--
-- Scopes: a site key ('vixen', 'channels', '*' for the combined brand's counts) for its
-- videos, categories and counts; 'names' for what a card shows of performers and categories
-- (slug, name); 'people' for the rest of a performer (rating, counts, sites: the search's
-- name suggestions); 'terms' for the search lexicon.
--
-- Each scope is kept in 16 slots (picked by transaction id) so concurrent writers on one site
-- rarely wait for each other's commit; a scope's generation is the sum of its slots. Rows are
-- only ever incremented, never deleted, so a generation never comes back to an old value.
create table read_generation (
    scope text not null,
    slot int not null,
    generation bigint not null,
    primary key (scope, slot)
);

create function bump_read_generation(scopes text[]) returns void language sql as $$
    insert into read_generation (scope, slot, generation)
    select s, (pg_current_xact_id()::text::bigint % 16)::int, 1
    from (select distinct s from unnest(scopes) s where s is not null) d order by s
    on conflict (scope, slot) do update set generation = read_generation.generation + 1;
$$;

-- Tables with a `site` column: video, video_category, listing_count.
create function read_generation_by_site() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        perform bump_read_generation(array(select distinct site from new_rows));
    elsif tg_op = 'UPDATE' then
        perform bump_read_generation(array(select site from new_rows union select site from old_rows));
    else
        perform bump_read_generation(array(select distinct site from old_rows));
    end if;
    return null;
end $$;

-- Performers and categories: their slug or name (what a card shows) are 'names'; anything
-- else (rating, counts, sites: what the search's suggestions order and filter by) is 'people'.
create function read_generation_named() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        if exists (select 1 from new_rows) then
            perform bump_read_generation(array['names', 'people']);
        end if;
    elsif tg_op = 'DELETE' then
        if exists (select 1 from old_rows) then
            perform bump_read_generation(array['names', 'people']);
        end if;
    elsif exists ((select slug, name from new_rows except select slug, name from old_rows)
                  union all (select slug, name from old_rows except select slug, name from new_rows)) then
        perform bump_read_generation(array['names', 'people']);
    elsif exists (select 1 from new_rows) then
        perform bump_read_generation(array['people']);
    end if;
    return null;
end $$;

-- Tables whose every change bumps the scopes given: search_term ('terms').
create function read_generation_constant() returns trigger language plpgsql as $$
begin
    if tg_op = 'DELETE' then
        if exists (select 1 from old_rows) then
            perform bump_read_generation(tg_argv::text[]);
        end if;
    elsif exists (select 1 from new_rows) then
        perform bump_read_generation(tg_argv::text[]);
    end if;
    return null;
end $$;

create trigger video_generation_insert after insert on video
    referencing new table as new_rows for each statement execute function read_generation_by_site();
create trigger video_generation_update after update on video
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_by_site();
create trigger video_generation_delete after delete on video
    referencing old table as old_rows for each statement execute function read_generation_by_site();

create trigger video_category_generation_insert after insert on video_category
    referencing new table as new_rows for each statement execute function read_generation_by_site();
create trigger video_category_generation_update after update on video_category
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_by_site();
create trigger video_category_generation_delete after delete on video_category
    referencing old table as old_rows for each statement execute function read_generation_by_site();

create trigger listing_count_generation_insert after insert on listing_count
    referencing new table as new_rows for each statement execute function read_generation_by_site();
create trigger listing_count_generation_update after update on listing_count
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_by_site();
create trigger listing_count_generation_delete after delete on listing_count
    referencing old table as old_rows for each statement execute function read_generation_by_site();

create trigger performer_generation_insert after insert on performer
    referencing new table as new_rows for each statement execute function read_generation_named();
create trigger performer_generation_update after update on performer
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_named();
create trigger performer_generation_delete after delete on performer
    referencing old table as old_rows for each statement execute function read_generation_named();

create trigger category_generation_insert after insert on category
    referencing new table as new_rows for each statement execute function read_generation_named();
create trigger category_generation_update after update on category
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_named();
create trigger category_generation_delete after delete on category
    referencing old table as old_rows for each statement execute function read_generation_named();

create trigger search_term_generation_insert after insert on search_term
    referencing new table as new_rows for each statement execute function read_generation_constant('terms');
create trigger search_term_generation_update after update on search_term
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_constant('terms');
create trigger search_term_generation_delete after delete on search_term
    referencing old table as old_rows for each statement execute function read_generation_constant('terms');
