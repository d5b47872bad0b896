-- The sitemaps' generation: the 'sitemap' scope of read_generation (0005), bumped by every
-- change to what a brand's sitemaps list (a video, performer, category, channel or showcase
-- appearing, going, or changing its slug, names, sites or what the video sitemap says of it),
-- in the writer's own transaction, and by nothing else: a rating or a view count moves the
-- listings' generations, not this one. (Performers and channels are listed while they have videos,
-- so their count going from or to none counts.) The gateway rebuilds a brand's sitemaps when it moves.

-- Bumps the scopes given, whatever the statement touched (TRUNCATE, which has no rows to look at).
create function read_generation_always() returns trigger language plpgsql as $$
begin
    perform bump_read_generation(tg_argv::text[]);
    return null;
end $$;

-- An UPDATE bumps 'sitemap' only when one of the columns named (what a sitemap shows) changed in
-- some row: a statement that changes nothing, or changes only ratings and counts, bumps nothing.
create function read_generation_sitemap_update() returns trigger language plpgsql as $$
declare
    columns text := array_to_string(tg_argv, ', ');
    changed boolean;
begin
    execute format('select exists ((select %1$s from new_rows except select %1$s from old_rows)
                                   union all (select %1$s from old_rows except select %1$s from new_rows))', columns)
        into changed;
    if changed then
        perform bump_read_generation(array['sitemap']);
    end if;
    return null;
end $$;

create trigger video_sitemap_insert after insert on video
    referencing new table as new_rows for each statement execute function read_generation_constant('sitemap');
create trigger video_sitemap_delete after delete on video
    referencing old table as old_rows for each statement execute function read_generation_constant('sitemap');
create trigger video_sitemap_update after update on video
    referencing old table as old_rows new table as new_rows
    for each statement execute function read_generation_sitemap_update('slug', 'site', 'title', 'description', 'release_date', 'duration_seconds', 'published', 'published_at');
create trigger video_sitemap_truncate after truncate on video
    for each statement execute function read_generation_always('sitemap');

create trigger performer_sitemap_insert after insert on performer
    referencing new table as new_rows for each statement execute function read_generation_constant('sitemap');
create trigger performer_sitemap_delete after delete on performer
    referencing old table as old_rows for each statement execute function read_generation_constant('sitemap');
create trigger performer_sitemap_update after update on performer
    referencing old table as old_rows new table as new_rows
    for each statement execute function read_generation_sitemap_update('slug', 'sites', 'published_at', 'video_count > 0');
create trigger performer_sitemap_truncate after truncate on performer
    for each statement execute function read_generation_always('sitemap');

create trigger category_sitemap_insert after insert on category
    referencing new table as new_rows for each statement execute function read_generation_constant('sitemap');
create trigger category_sitemap_delete after delete on category
    referencing old table as old_rows for each statement execute function read_generation_constant('sitemap');
create trigger category_sitemap_update after update on category
    referencing old table as old_rows new table as new_rows
    for each statement execute function read_generation_sitemap_update('slug', 'sites', 'defined_at');
create trigger category_sitemap_truncate after truncate on category
    for each statement execute function read_generation_always('sitemap');

create trigger channel_sitemap_insert after insert on channel
    referencing new table as new_rows for each statement execute function read_generation_constant('sitemap');
create trigger channel_sitemap_delete after delete on channel
    referencing old table as old_rows for each statement execute function read_generation_constant('sitemap');
create trigger channel_sitemap_update after update on channel
    referencing old table as old_rows new table as new_rows
    for each statement execute function read_generation_sitemap_update('slug', 'sites', 'published_at', 'video_count > 0');
create trigger channel_sitemap_truncate after truncate on channel
    for each statement execute function read_generation_always('sitemap');

create trigger showcase_sitemap_insert after insert on showcase
    referencing new table as new_rows for each statement execute function read_generation_constant('sitemap');
create trigger showcase_sitemap_delete after delete on showcase
    referencing old table as old_rows for each statement execute function read_generation_constant('sitemap');
create trigger showcase_sitemap_update after update on showcase
    referencing old table as old_rows new table as new_rows
    for each statement execute function read_generation_sitemap_update('slug', 'sites', 'published_at');
create trigger showcase_sitemap_truncate after truncate on showcase
    for each statement execute function read_generation_always('sitemap');

-- A brand's videos oldest published first, a file's worth at a time (queries/sitemap.rs).
create index video_site_published on video (site, published_at, video_id) where published;
