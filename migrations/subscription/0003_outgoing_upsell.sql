-- Outgoing one-click upsells: a partner's membership sold to a member in one click, charged by
-- the member's biller under its upsell id; one sale per member and offer. Attempts that sold
-- nothing (no active membership, no upsell id for the member's biller) are kept too, for the
-- tracking call of the failure route.
create table outgoing_upsell (
    attempt_id uuid primary key,
    user_id uuid not null,
    offer text,
    biller text,
    upsell_id text,
    click_id text,
    member_link text,
    fallback_url text,
    price text,
    recurring_price text,
    currency text,
    status text not null check (status in ('charged', 'unavailable')),
    created_at timestamptz not null default now(),
    tracked_outcome text check (tracked_outcome in ('success', 'failure')),
    tracked_at timestamptz
);
create unique index outgoing_upsell_once on outgoing_upsell (user_id, offer) where status = 'charged';
create index outgoing_upsell_user on outgoing_upsell (user_id, created_at desc);
