-- Media tokens rest on the subscriptions (or the channel pack) that opened the video; serving
-- a token checks that none of them ended since it was issued (issue 19: a cancel at period
-- end, a chargeback or a forfeit takes effect within seconds, not at token expiry).
alter table member_subscription add column ended_at timestamptz;

create index channel_pack_unlock_forfeited on channel_pack_unlock (user_id, channel_pack_id, forfeited_at)
    where forfeited_at is not null;

-- The brand a pending unlock was asked on: the reconciler asks the access rules again, on that
-- brand, before it finishes a pack unlock.
alter table pending_unlock add column tenant text;
