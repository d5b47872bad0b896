-- The wallet's refusal of an unlock's debit, as the request that sent it was answered, so a
-- copy of that request (which joined the same pending unlock) answers the same refusal with
-- the same fields. Bookkeeping written before `UnlockRefused`, not a read model (a rebuild
-- leaves it); rows older than a day are dropped as new ones come.
create table refused_unlock (
    unlock_id uuid primary key,
    user_id uuid not null,
    code text not null,
    message text not null default '',
    balance bigint not null default 0,
    needed bigint not null default 0,
    days_until_refresh_gems integer not null default 0,
    refused_at timestamptz not null
);
create index refused_unlock_at on refused_unlock (refused_at);
