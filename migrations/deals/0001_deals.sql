-- The deals service's read models. `deal` and `interstitial_snooze` are kept from the
-- service's own events in the append's transaction; `portal_subscription` by the
-- subscription-events consumer. Every table can be emptied and rebuilt
-- (`paysite rebuild-projections deals`).

-- One row per deal: the whole deal as its events left it (`body`, the event's shape), the
-- answer the API gives for it (`view`, the spec's camelCase names: findDeals sends these
-- as they are), and the columns findDeals filters and orders on.
create table deal (
    deal_id uuid primary key,
    version bigint not null check (version > 0),
    site text not null,
    rank bigint not null check (rank >= 0),
    rank_listing bigint not null check (rank_listing >= 0),
    rank_interstitial bigint not null check (rank_interstitial >= 0),
    enabled boolean not null,
    enabled_list boolean not null,
    enabled_interstitial boolean not null,
    special_offer boolean not null,
    body jsonb not null,
    view jsonb not null
);
-- findDeals per type: a site's enabled deals in rank order.
create index deal_carousel on deal (site, rank, deal_id) where enabled;
create index deal_listing on deal (site, rank_listing, deal_id) where enabled_list;
create index deal_interstitial on deal (site, rank_interstitial, deal_id) where enabled_interstitial;
create index deal_site on deal (site, deal_id);

-- The last snooze of the offers interstitial per user and site; hidden while now < snoozed_until.
create table interstitial_snooze (
    user_id uuid not null,
    site text not null,
    snoozed_at timestamptz not null,
    snoozed_until timestamptz not null,
    primary key (user_id, site)
);

-- Subscriptions as the deals service knows them, folded from subscription events: who is
-- a porn-portal subscriber (and so sees the special offers).
create table portal_subscription (
    subscription_id uuid primary key,
    user_id uuid not null,
    -- Null while only events after the start have arrived (they may come out of order).
    kind text check (kind in ('member', 'trial', 'porn-portal')),
    status text not null check (status in ('active', 'cancelled', 'ended')),
    -- When the event that set `status` happened: an older event never overrides it.
    status_at timestamptz not null
);
create index portal_subscription_user on portal_subscription (user_id) where kind = 'porn-portal';
