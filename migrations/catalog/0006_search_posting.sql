-- The search's postings: one narrow row per (word, published video), so a search reads a few
-- short index ranges (index-only) instead of visiting every matching video's wide row to rank
-- it. `term` is keyed like the words of `video.title_words` / `other_words`: `vixen:golden`
-- (a brand's search) for every published video, and the plain `golden` (the combined brand's
-- search) for every published video not on the channels site. `in_title`: the word is in the
-- title (or slug), which ranks above a performer, category or channel name.
--
-- The key is the order a one-word search ranks in: a word's postings read backwards are its
-- title matches newest first, then its name matches newest first, so such a page is the first
-- entries of one index range and its total a count of that range (index-only). The projection
-- writes one posting per (term, video); deletes find them by every key column.
--
-- Written by the catalog projection beside `video` (and refilled by a rebuild); the columns
-- `video.title_words` / `other_words` stay the video's word lists the postings are made from.
create table search_posting (
    term text not null,
    video_id uuid not null,
    release_date timestamptz not null,
    in_title boolean not null,
    primary key (term, in_title, release_date, video_id)
);

insert into search_posting (term, video_id, release_date, in_title)
select x.w, v.video_id, v.release_date, bool_or(x.t)
from video v
cross join lateral (select unnest(v.title_words) as w, true as t
                    union all select unnest(v.other_words), false) x
where v.published and (v.site <> 'channels' or position(':' in x.w) > 0)
group by x.w, v.video_id, v.release_date;
-- Statistics now: a search planned before autovacuum gets to the new table picks bad plans.
analyze search_posting;

-- Search no longer reads the word arrays through these.
drop index if exists video_title_words;
drop index if exists video_other_words;

-- A posting changes what a search of its brand answers (the plain ones: the combined brand's,
-- which depends on every scope), like the `video` rows beside it.
create function read_generation_by_term() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        perform bump_read_generation(array(select distinct case when position(':' in term) > 0
            then split_part(term, ':', 1) else '*' end from new_rows));
    elsif tg_op = 'UPDATE' then
        perform bump_read_generation(array(select case when position(':' in term) > 0
            then split_part(term, ':', 1) else '*' end from (select term from new_rows union select term from old_rows) t));
    else
        perform bump_read_generation(array(select distinct case when position(':' in term) > 0
            then split_part(term, ':', 1) else '*' end from old_rows));
    end if;
    return null;
end $$;

create trigger search_posting_generation_insert after insert on search_posting
    referencing new table as new_rows for each statement execute function read_generation_by_term();
create trigger search_posting_generation_update after update on search_posting
    referencing old table as old_rows new table as new_rows for each statement execute function read_generation_by_term();
create trigger search_posting_generation_delete after delete on search_posting
    referencing old table as old_rows for each statement execute function read_generation_by_term();
