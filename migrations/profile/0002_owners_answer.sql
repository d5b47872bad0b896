-- One owner per fact (issue 19): findOneUserProfile's wallet and unlocks fields are the
-- owners' answers, gathered by the gateway. The profile's copies of them go.
drop table if exists member_wallet;
drop table if exists unlocked_channel_pack;
drop table if exists unlocked_video;
drop table if exists download_quota;
drop table if exists channel_pack;

-- The gateway's revocation set loads the sessions revoked within an access token's lifetime.
create index session_family_revoked on session_family (revoked_at) where revoked_at is not null;
