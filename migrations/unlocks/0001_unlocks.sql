-- The unlocks service's read models. Rebuildable (`paysite rebuild-projections unlocks`):
-- the first group from the service's own events (written in the append's transaction),
-- `catalog_*` from the catalog consumer's inbox, `member_subscription` from the subscription
-- consumer's inbox. Writers of one user's stream serialise on an advisory lock, not on a row.

-- One row per user with an unlocks event.
create table unlocker (
    user_id uuid primary key,
    version bigint not null check (version > 0),
    -- lastChannelPackUnlockDate (kept through forfeits: it is when, not what).
    last_channel_pack_unlock_at timestamptz,
    -- Full videos taken of the free limited trial's 3.
    free_trial_videos_used integer not null default 0 check (free_trial_videos_used >= 0)
);

-- Unlocks paid from the wallet whose debit may or may not have happened yet: written
-- before the debit, deleted when the unlock is recorded or refused. The reconciler's work list.
create table pending_unlock (
    unlock_id uuid primary key,
    user_id uuid not null,
    target_kind text not null check (target_kind in ('channel_pack', 'video')),
    -- The channel pack or the video.
    target_id uuid not null,
    channel_id uuid,
    new_id text,
    asset text not null check (asset in ('gems', 'credits')),
    amount integer not null check (amount > 0),
    requested_at timestamptz not null,
    unique (user_id, target_kind, target_id)
);
create index pending_unlock_requested on pending_unlock (requested_at);

-- Channel pack unlocks; those without `forfeited_at` are held now. Forfeited ones stay, so a
-- late second completion of the same unlock is known as done and never opens the pack again.
create table channel_pack_unlock (
    unlock_id uuid primary key,
    user_id uuid not null,
    channel_pack_id uuid not null,
    channel_id uuid not null,
    gems_spent integer not null,
    unlocked_at timestamptz not null,
    forfeited_at timestamptz
);
create unique index channel_pack_unlock_held on channel_pack_unlock (user_id, channel_pack_id) where forfeited_at is null;

-- Videos opened for good (credits) or as one of the free limited trial's full videos.
create table video_unlock (
    user_id uuid not null,
    video_id uuid not null,
    unlock_id uuid not null unique,
    new_id text not null,
    paid_with text not null check (paid_with in ('credits', 'free_limited_trial')),
    unlocked_at timestamptz not null,
    primary key (user_id, video_id)
);

-- Downloads granted, each counted against one quota bucket (`site:<brand>` or `channels`).
create table download (
    download_id uuid primary key,
    user_id uuid not null,
    video_id uuid not null,
    resolution text not null,
    bucket text not null,
    granted_at timestamptz not null
);
create index download_quota on download (user_id, bucket, granted_at);

-- Catalog facts, from catalog events.
create table catalog_video (
    video_id uuid primary key,
    new_id text not null,
    site text not null,
    channel_id uuid,
    channel_pack_id uuid,
    -- The channel's quota category as the video carries it (compilations, behind_the_scenes, intimates).
    channel_category text,
    is_third_party_channel boolean not null,
    is_free_limited_trial boolean not null,
    qualities text[] not null,
    published boolean not null
);
create index catalog_video_new_id on catalog_video (new_id);

create table catalog_channel (
    channel_id uuid primary key,
    slug text not null,
    kind text not null,
    category text,
    sites text[] not null
);

create table catalog_channel_pack (
    channel_pack_id uuid primary key,
    channel_id uuid not null,
    video_ids uuid[] not null
);
-- Which pack opens a video, from the packs' side.
create table catalog_channel_pack_video (
    video_id uuid not null,
    channel_pack_id uuid not null,
    primary key (video_id, channel_pack_id)
);

-- Subscriptions as entitlement facts, from subscription events.
create table member_subscription (
    subscription_id uuid primary key,
    user_id uuid not null,
    kind text not null check (kind in ('member', 'trial', 'porn-portal')),
    sites text[] not null,
    is_free_limited_trial boolean not null,
    standing text not null check (standing in ('active', 'cancelled', 'ended'))
);
create index member_subscription_user on member_subscription (user_id);
