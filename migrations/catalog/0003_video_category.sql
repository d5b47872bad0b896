-- A brand's videos per category, with the columns the category pages order by, so a page
-- of one category is an index-only range instead of a filtered walk of the brand's videos.
create table video_category (
    site text not null,
    category text not null,
    video_id uuid not null,
    release_date timestamptz not null,
    rating double precision not null,
    primary key (video_id, category)
);
create index video_category_newest on video_category (site, category, release_date desc, video_id desc);
create index video_category_rating on video_category (site, category, rating desc, release_date desc, video_id desc);

-- Search words are now kept twice: plain (the combined brand searches every brand) and
-- prefixed with the video's site (`vixen:golden`), so a brand's search reads only its own
-- postings. The projection writes both; a rebuild refills them.
