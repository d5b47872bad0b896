-- The catalog's read models. Every table here is written only by the catalog projection
-- (from the catalog's own events) and can be emptied and rebuilt from the event store.

-- pg_trgm lives in public (one copy per database): a test schema dropped with cascade
-- must never take the extension with it. Its functions are called qualified.
do $$
begin
    create extension if not exists pg_trgm with schema public;
exception when unique_violation or duplicate_object then
    null;
end $$;

create table performer (
    performer_id uuid primary key,
    slug text not null unique,
    name text not null,
    sex text not null,
    sites text[] not null,
    published_at timestamptz not null,
    -- Overall ratings of the performer's videos, summed.
    rating_sum bigint not null default 0,
    rating_count bigint not null default 0,
    rating double precision not null default -1,
    video_count integer not null default 0
);
create index performer_sites on performer using gin (sites);
create index performer_rating on performer (rating desc, slug);

create table category (
    category_id uuid primary key,
    slug text not null unique,
    name text not null,
    sites text[] not null,
    defined_at timestamptz not null
);

create table channel (
    channel_id uuid primary key,
    slug text not null unique,
    name text not null,
    kind text not null,
    category text,
    sites text[] not null,
    published_at timestamptz not null,
    video_count integer not null default 0
);
create index channel_sites on channel using gin (sites);

create table channel_pack (
    channel_pack_id uuid primary key,
    channel_id uuid not null,
    slug text not null,
    name text not null,
    video_ids uuid[] not null,
    published_at timestamptz not null,
    unique (channel_id, slug)
);

-- The listing table: one row per published video with everything a card shows, so a
-- page of cards is one index range.
create table video (
    video_id uuid primary key,
    legacy_id text not null,
    new_id text not null,
    slug text not null,
    site text not null,
    title text not null,
    description text not null,
    release_date timestamptz not null,
    duration_seconds integer not null,
    performer_ids uuid[] not null,
    category_slugs text[] not null,
    channel_id uuid,
    channel_slug text,
    channel_pack_id uuid,
    channel_category text,
    is_third_party_channel boolean not null,
    is_free_limited_trial boolean not null,
    award integer not null,
    qualities text[] not null,
    published boolean not null,
    published_at timestamptz not null,
    rating_sum bigint not null default 0,
    rating_count bigint not null default 0,
    -- -1 until someone rated it.
    rating double precision not null default -1,
    -- Lower-cased words of the title, performer names and category names (search).
    title_words text[] not null default '{}',
    other_words text[] not null default '{}',
    unique (site, slug)
);
create index video_site_newest on video (site, release_date desc, video_id) where published;
create index video_newest on video (release_date desc, video_id) where published;
create index video_site_rating on video (site, rating desc, release_date desc, video_id) where published;
create index video_site_award on video (site, release_date desc, video_id) where published and award = 1;
create index video_categories on video using gin (category_slugs) where published;
create index video_performers on video using gin (performer_ids) where published;
create index video_channel on video (channel_id, release_date desc, video_id) where published;
create index video_title_words on video using gin (title_words) where published;
create index video_other_words on video using gin (other_words) where published;
create index video_new_id on video (new_id);

-- Totals of listings, kept by the projection so a page's totalCount is one row:
-- facet '' is the whole site, 'category:<slug>', 'performer:<uuid>', 'channel:<uuid>', 'award'.
create table listing_count (
    site text not null,
    facet text not null,
    n bigint not null,
    primary key (site, facet)
);

-- Every word search knows, for typo-tolerant matching with pg_trgm.
create table search_term (
    term text primary key
);
create index search_term_trgm on search_term using gin (term public.gin_trgm_ops);

create table picture_set (
    picture_set_id uuid primary key,
    video_id uuid not null unique,
    site text not null,
    pictures jsonb not null,
    published_at timestamptz not null
);

create table comment (
    comment_id uuid primary key,
    video_id uuid not null,
    parent_comment_id uuid,
    user_id uuid not null,
    author_name text,
    text text not null,
    added_at timestamptz not null,
    likes integer not null default 0,
    dislikes integer not null default 0,
    replies integer not null default 0,
    pinned boolean not null default false,
    pinned_at timestamptz,
    removed boolean not null default false
);
create index comment_thread on comment (video_id, added_at desc) where parent_comment_id is null and not removed;
create index comment_replies on comment (parent_comment_id, added_at) where parent_comment_id is not null;
create index comment_author_text on comment (user_id, video_id, md5(text));

create table comment_vote (
    comment_id uuid not null,
    user_id uuid not null,
    vote text not null,
    voted_at timestamptz not null,
    primary key (comment_id, user_id)
);

-- A member's overall rating of a video (the latest of VideoRated and a global expert review).
create table video_rating (
    user_id uuid not null,
    video_id uuid not null,
    rating smallint not null,
    rated_at timestamptz not null,
    primary key (user_id, video_id)
);

create table expert_review (
    user_id uuid not null,
    video_id uuid not null,
    -- 'global', 'property:<criterion>', 'model:<performer uuid>'
    item text not null,
    slug text not null,
    rating smallint not null,
    updated_at timestamptz not null,
    primary key (user_id, video_id, item)
);

create table favourite (
    user_id uuid not null,
    kind text not null,
    target_id uuid not null,
    added_at timestamptz not null,
    primary key (user_id, kind, target_id)
);
create index favourite_recent on favourite (user_id, kind, added_at desc, target_id);

create table reel (
    reel_id uuid primary key,
    site text not null,
    title text not null,
    video_id uuid not null,
    duration_seconds integer not null,
    published_at timestamptz not null,
    views bigint not null default 0,
    purchases bigint not null default 0,
    bookmarks bigint not null default 0
);
create index reel_site on reel (site, published_at desc, reel_id);

create table reel_bookmark (
    user_id uuid not null,
    reel_id uuid not null,
    primary key (user_id, reel_id)
);

create table reel_rating (
    user_id uuid not null,
    reel_id uuid not null,
    rating smallint not null,
    primary key (user_id, reel_id)
);

create table recommendation_click (
    user_id uuid not null,
    recomm_id text not null,
    element_clicked text not null,
    clicked_at timestamptz not null
);
create index recommendation_click_recomm on recommendation_click (recomm_id);

create table showcase (
    showcase_id uuid primary key,
    slug text not null unique,
    title text not null,
    description text not null,
    sites text[] not null,
    video_ids uuid[] not null,
    published_at timestamptz not null
);

create table angel (
    angel_id uuid primary key,
    slug text not null unique,
    name text not null,
    performer_id uuid not null,
    bio text not null,
    sites text[] not null,
    published_at timestamptz not null
);

create table curator_post (
    post_id uuid primary key,
    site text not null,
    title text not null,
    text text not null,
    video_id uuid,
    published_at timestamptz not null
);
create index curator_post_site on curator_post (site, published_at desc, post_id);
