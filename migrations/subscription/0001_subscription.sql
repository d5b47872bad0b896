-- The subscription service: biller facts (every accepted postback, raw), the write-side terms
-- of each subscription, signups waiting for a biller, one-click purchases by idempotency key,
-- and the read models kept from the service's own events and the profile's.

-- Every postback accepted, once per (biller, transaction id): the input log of the decider.
create table postback (
    biller text not null,
    transaction_id text not null,
    -- null for a declined sale, which starts no subscription
    subscription_id uuid,
    subscription_ref text not null,
    -- the normalised step (initial, trial, rebill, ...), or declined
    step text not null,
    -- the domain fact the decider folds; null when declined
    fact jsonb,
    occurred_at timestamptz not null,
    raw_body text not null,
    content_type text,
    signature text,
    received_at timestamptz not null default now(),
    primary key (biller, transaction_id)
);
create index postback_subscription on postback (subscription_id);

-- Who a subscription is for and what was bought: fixed when it starts.
create table billing_subscription (
    subscription_id uuid primary key,
    biller text not null,
    subscription_ref text not null,
    user_id uuid not null,
    site text not null,
    sites text[] not null,
    join_option_id integer,
    nats_code text,
    created_at timestamptz not null default now(),
    unique (biller, subscription_ref)
);
create index billing_subscription_user on billing_subscription (user_id);

-- A join form sent to a biller's payment page, until the biller answers.
create table signup (
    signup_id uuid primary key,
    user_id uuid not null,
    email text not null,
    username text,
    -- held only until the account is created (cleared then, or on a decline)
    password text,
    site text not null,
    join_option_id integer not null,
    biller text not null,
    ref text,
    elm text,
    nats text,
    status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
    reason text,
    member_id text,
    subscription_id uuid,
    transaction_id text,
    created_at timestamptz not null default now(),
    decided_at timestamptz
);
create index signup_member on signup (biller, member_id);

-- One-click purchases: the same key answers the same, whatever the concurrency.
create table purchase (
    idempotency_key text primary key,
    user_id uuid not null,
    kind text not null,
    request_hash text not null,
    status smallint,
    answer jsonb,
    created_at timestamptz not null default now()
);

-- Read model of the service's own events: one row per subscription.
create table member_subscription (
    subscription_id uuid primary key,
    user_id uuid not null,
    site text not null,
    sites text[] not null,
    kind text not null,
    is_free_limited_trial boolean not null,
    biller text not null,
    active_since timestamptz not null,
    join_date timestamptz not null,
    active boolean not null,
    cancelled boolean not null default false,
    ended text,
    ended_at timestamptz,
    nats_code text,
    updated_at timestamptz not null
);
create index member_subscription_user on member_subscription (user_id);

-- From the profile's events: e-mails of accounts (join: "log in instead") and tandem links.
create table account (
    user_id uuid primary key,
    email text not null,
    tandem_parent_user_id uuid
);
create index account_email on account (email);
