-- The wallet's read models: balances, the ledger, and what it knows of subscriptions.
-- All but `subscription` are kept from the wallet's own events in the append's
-- transaction; `subscription` is kept by the subscription-events consumer. Every table
-- can be emptied and rebuilt (`paysite rebuild-projections wallet`).

-- One row per wallet that has an event: the balances after its last event, and the
-- stream version they stand at. Writers lock it (`select ... for update`) so that one
-- wallet's commands run one after another, across processes.
create table wallet (
    user_id uuid primary key,
    version bigint not null check (version > 0),
    gems bigint not null check (gems >= 0),
    credits bigint not null check (credits >= 0),
    -- The profile's gems.lastAcknowledgementDate.
    last_acknowledged_at timestamptz,
    -- Gems arrived since the user last acknowledged the balance.
    gems_unacknowledged boolean not null
);

-- Every grant, debit and forfeit of both assets: the wallet transactions.
create table ledger_entry (
    event_id uuid primary key,
    user_id uuid not null,
    stream_version bigint not null,
    currency text not null check (currency in ('gems', 'credits')),
    entry_type text not null check (entry_type in ('grant', 'debit', 'forfeit')),
    reason text not null,
    reference text not null,
    amount bigint not null check (amount > 0),
    balance_after bigint not null check (balance_after >= 0),
    created_at timestamptz not null,
    -- `<user id> <reference>`: what a command looks up (a debit by its idempotency key, a
    -- grant by its reference). One column, so that the plan of the lookup cannot drift to
    -- scanning a hot wallet's every entry on a skewed user_id estimate.
    lookup text not null,
    unique (user_id, stream_version)
);
-- getTransactions: newest first.
create index ledger_entry_user_created on ledger_entry (user_id, created_at desc, stream_version desc);
create index ledger_entry_lookup on ledger_entry (lookup);
-- The decider already refuses these twice; the table refuses them too.
create unique index ledger_entry_debit_key on ledger_entry (lookup) where entry_type = 'debit';
create unique index ledger_entry_grant_reference on ledger_entry (currency, reason, lookup) where entry_type = 'grant';

-- Subscriptions as the wallet knows them, folded from subscription events: the Friday
-- scheduler's work list. A grant reads its row `for share` and the consumer updates it
-- `for update`, so a grant and a concurrent cancel of one subscription serialise.
create table subscription (
    subscription_id uuid primary key,
    user_id uuid not null,
    kind text not null check (kind in ('member', 'trial', 'porn-portal')),
    status text not null check (status in ('active', 'cancelled', 'ended')),
    -- Start of the current stretch as an active member; null when not earning.
    member_since timestamptz
);
create index subscription_earning on subscription (member_since)
    where status = 'active' and kind = 'member' and member_since is not null;
