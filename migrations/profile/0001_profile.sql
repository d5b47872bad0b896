-- The profile service's tables.
--
-- Read models (emptied and rebuilt by `paysite rebuild-projections profile`):
--   user_profile, user_group            from the profile's own events, in the append's transaction;
--   member_subscription, member_wallet,
--   unlocked_channel_pack, unlocked_video,
--   download_quota, channel_pack        from other services' events, by the `profile.projections` consumer.
--
-- Security state (never rebuilt from events, because events carry no secrets):
--   credential, signing_key, session_family, refresh_token, authorization_code,
--   autologin_token, login_failure.

-- One row per account: every field of findOneUserProfile the profile owns.
create table user_profile (
    user_id uuid primary key,
    version bigint not null,
    email text not null,
    username text,
    display_name text,
    site text not null,
    registered_at timestamptz not null,
    tandem_parent_user_id uuid,
    has_tandem_child_account boolean not null default false,
    autoplay_enabled boolean not null default true,
    has_email_consent boolean not null default false,
    email_consent_set boolean not null default false,
    terms_consent_given boolean not null default false,
    cams_consent_given boolean not null default false,
    relationship_status text,
    relationship_role text,
    gems_intro_acknowledged_at timestamptz,
    teaser_viewed boolean not null default false,
    texas_health_warning_acknowledged boolean not null default false,
    alabama_health_warning_acknowledged boolean not null default false,
    special_attributes jsonb not null default '{}'::jsonb,
    vip_invited boolean not null default false,
    vip_converted boolean not null default false,
    credentials_changed_at timestamptz
);
-- Usernames and e-mails are unique; the append's transaction fails on a clash, which the
-- handlers answer as 'already taken' / EMAIL_ALREADY_EXISTS.
create unique index user_profile_username on user_profile (username);
create unique index user_profile_email on user_profile (email);
create index user_profile_tandem_parent on user_profile (tandem_parent_user_id);

create table user_group (
    user_id uuid not null,
    group_name text not null,
    primary key (user_id, group_name)
);

-- What the profile knows of subscriptions (subscription events).
create table member_subscription (
    subscription_id uuid primary key,
    user_id uuid not null,
    site text not null,
    sites text[] not null,
    kind text not null,
    is_free_limited_trial boolean not null,
    biller text not null,
    active_since timestamptz not null,
    active boolean not null,
    cancelled boolean not null default false,
    ended_at timestamptz,
    updated_at timestamptz not null
);
create index member_subscription_user on member_subscription (user_id);

-- Credits balance and the gems acknowledgement (wallet events).
create table member_wallet (
    user_id uuid primary key,
    credits bigint not null default 0,
    last_acknowledgement_date timestamptz
);

create table unlocked_channel_pack (
    user_id uuid not null,
    channel_pack_id uuid not null,
    unlocked_at timestamptz not null,
    primary key (user_id, channel_pack_id)
);

create table unlocked_video (
    user_id uuid not null,
    video_id uuid not null,
    new_id text not null,
    unlocked_at timestamptz not null,
    primary key (user_id, video_id)
);

-- The last download counted per user and quota bucket (`site:<brand>` or `category:<name>`).
create table download_quota (
    user_id uuid not null,
    bucket text not null,
    downloads_in_window integer not null,
    quota_max integer not null,
    window_days integer not null,
    window_started_at timestamptz not null,
    primary key (user_id, bucket)
);

-- Every published channel pack: the denominator of percentageOfUnlockedChannelPacks.
create table channel_pack (
    channel_pack_id uuid primary key
);

-- Password hashes (argon2id, PHC strings). Written in the same transaction as the
-- CredentialsChanged event that records the change.
create table credential (
    user_id uuid primary key,
    password_hash text not null,
    changed_at timestamptz not null
);

-- The Ed25519 key that signs access tokens, when PROFILE_SIGNING_KEY does not give one:
-- generated once, kept so that restarts and replicas sign with the same key.
create table signing_key (
    kid text primary key,
    seed bytea not null check (length(seed) = 32),
    created_at timestamptz not null default now()
);

-- A session: one refresh-token family, for one user on one brand host.
create table session_family (
    session_id uuid primary key,
    user_id uuid not null,
    audience text not null,
    tenant text not null,
    created_at timestamptz not null,
    revoked_at timestamptz,
    revoked_reason text
);
create index session_family_user on session_family (user_id) where revoked_at is null;

-- Refresh tokens, by the SHA-256 of the opaque value. A rotated token keeps its row
-- (rotated_at set) so that its reuse is recognised and revokes the family.
create table refresh_token (
    token_hash bytea primary key,
    session_id uuid not null references session_family (session_id) on delete cascade,
    issued_at timestamptz not null,
    expires_at timestamptz not null,
    rotated_at timestamptz
);
create index refresh_token_session on refresh_token (session_id);

-- Single-use authorization codes: a sign-in on the members host, or a cross-site switch,
-- bound to the brand host that may exchange it.
create table authorization_code (
    code_hash bytea primary key,
    user_id uuid not null,
    audience text not null,
    tenant text not null,
    method text not null,
    expires_at timestamptz not null,
    used_at timestamptz
);

-- Single-use autologin tokens (`/?al_token=`), issued after a signup or an upgrade.
create table autologin_token (
    token_hash bytea primary key,
    user_id uuid not null,
    site text not null,
    issued_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
);

-- Single-use id tokens already redeemed at /parent-redirect, until they expire.
create table redeemed_id_token (
    jti uuid primary key,
    expires_at timestamptz not null
);

-- Failed sign-ins, per account (`account:<login>`) and per client address (`address:<ip>`).
create table login_failure (
    id bigint generated always as identity primary key,
    subject text not null,
    failed_at timestamptz not null
);
create index login_failure_subject on login_failure (subject, failed_at);
