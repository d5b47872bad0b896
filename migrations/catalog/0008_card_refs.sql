-- The names a video card shows (its performers' and categories' id, slug and name) are kept
-- on the video row, as the listing table was meant to hold "everything a card shows": a page
-- of cards no longer looks up every card's performers and categories (about 0.6 ms of a
-- page's 1 ms of SQL on the 100k catalog).
--
-- Kept by triggers, like the read generations (0005), so every writer of these tables keeps
-- them (the live projection, the bulk seed, a rebuild, hand-written SQL): a video's row gets
-- its names when it is written with its performers or categories, and a performer or category
-- that is new, renamed, re-slugged or deleted rewrites the rows of the videos naming it. The
-- rewritten rows move their sites' generations, so cached cards follow.

create function card_performers(ids uuid[]) returns jsonb language sql stable as $$
    select coalesce(jsonb_agg(jsonb_build_object('id', p.performer_id, 'slug', p.slug, 'name', p.name)
                              order by array_position(ids, p.performer_id)), '[]')
    from performer p where p.performer_id = any(ids)
$$;

create function card_categories(slugs text[]) returns jsonb language sql stable as $$
    select coalesce(jsonb_agg(jsonb_build_object('slug', c.slug, 'name', c.name)
                              order by array_position(slugs, c.slug)), '[]')
    from category c where c.slug = any(slugs)
$$;

alter table video
    add column performer_refs jsonb not null default '[]',
    add column category_refs jsonb not null default '[]';

create function video_card_refs() returns trigger language plpgsql as $$
begin
    new.performer_refs := card_performers(new.performer_ids);
    new.category_refs := card_categories(new.category_slugs);
    return new;
end $$;

create trigger video_card_refs before insert or update of performer_ids, category_slugs on video
    for each row execute function video_card_refs();

-- A performer's or category's videos are found through the GIN indexes: published ones
-- (`video_performers`, `video_categories`) and unpublished ones (these, small).
create index video_unpublished_performers on video using gin (performer_ids) where not published;
create index video_unpublished_categories on video using gin (category_slugs) where not published;

-- Rewrites the names of the videos naming any of these performers or categories; rows whose
-- names come out unchanged are not written (no generation moves for them).
create function refresh_card_refs(performers uuid[], categories text[]) returns void language sql as $$
    update video v set performer_refs = n.p, category_refs = n.c
    from (select video_id, card_performers(performer_ids) as p, card_categories(category_slugs) as c
          from video
          where video_id in (select video_id from video where published and performer_ids && performers
                             union all select video_id from video where not published and performer_ids && performers
                             union all select video_id from video where published and category_slugs && categories
                             union all select video_id from video where not published and category_slugs && categories)) n
    where v.video_id = n.video_id and (v.performer_refs, v.category_refs) is distinct from (n.p, n.c)
$$;

-- Only when some performer or category changed what a card shows: ratings and counts update
-- performers on every rating, and those must not pay for a look-up.
create function card_refs_by_performer() returns trigger language plpgsql as $$
declare
    changed uuid[];
begin
    if tg_op = 'INSERT' then
        changed := array(select performer_id from new_rows);
    elsif tg_op = 'DELETE' then
        changed := array(select performer_id from old_rows);
    else
        -- Rows whose id, slug or name differ on either side (an id changed by hand too).
        changed := array(select performer_id from (
                             (select performer_id, slug, name from new_rows except select performer_id, slug, name from old_rows)
                             union (select performer_id, slug, name from old_rows except select performer_id, slug, name from new_rows)) d);
    end if;
    if cardinality(changed) > 0 then
        perform refresh_card_refs(changed, '{}');
    end if;
    return null;
end $$;

create function card_refs_by_category() returns trigger language plpgsql as $$
declare
    changed text[];
begin
    if tg_op = 'INSERT' then
        changed := array(select slug from new_rows);
    elsif tg_op = 'DELETE' then
        changed := array(select slug from old_rows);
    else
        changed := array(select slug from (
                             (select category_id, slug, name from new_rows except select category_id, slug, name from old_rows)
                             union (select category_id, slug, name from old_rows except select category_id, slug, name from new_rows)) d);
    end if;
    if cardinality(changed) > 0 then
        perform refresh_card_refs('{}', changed);
    end if;
    return null;
end $$;

create trigger performer_card_refs_insert after insert on performer
    referencing new table as new_rows for each statement execute function card_refs_by_performer();
create trigger performer_card_refs_update after update on performer
    referencing old table as old_rows new table as new_rows for each statement execute function card_refs_by_performer();
create trigger performer_card_refs_delete after delete on performer
    referencing old table as old_rows for each statement execute function card_refs_by_performer();

create trigger category_card_refs_insert after insert on category
    referencing new table as new_rows for each statement execute function card_refs_by_category();
create trigger category_card_refs_update after update on category
    referencing old table as old_rows new table as new_rows for each statement execute function card_refs_by_category();
create trigger category_card_refs_delete after delete on category
    referencing old table as old_rows for each statement execute function card_refs_by_category();

-- Emptied at once (no row triggers fire): no card names anyone any more.
create function card_refs_emptied() returns trigger language plpgsql as $$
begin
    if tg_table_name = 'performer' then
        update video set performer_refs = '[]' where performer_refs <> '[]';
    else
        update video set category_refs = '[]' where category_refs <> '[]';
    end if;
    return null;
end $$;

create trigger performer_card_refs_truncate after truncate on performer
    for each statement execute function card_refs_emptied();
create trigger category_card_refs_truncate after truncate on category
    for each statement execute function card_refs_emptied();

-- The videos already written.
update video set performer_refs = card_performers(performer_ids), category_refs = card_categories(category_slugs);
