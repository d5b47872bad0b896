-- The biller sandbox's own memory: the members it made, so rebills, cancels, chargebacks and
-- expiries can be sent for them on demand.
create table sandbox_member (
    member_id text primary key,
    biller text not null,
    site text not null,
    join_option_id integer,
    signup_id uuid,
    -- the postbacks sent for this member so far (transaction ids are `<member>-<n>`)
    sent integer not null default 0,
    created_at timestamptz not null default now()
);
