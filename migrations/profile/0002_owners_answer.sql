-- One owner per fact (issue 19): findOneUserProfile's wallet and unlocks fields are the
-- owners' answers, gathered by the gateway. The profile's copies of them go.
drop table if exists member_wallet;
drop table if exists unlocked_channel_pack;
drop table if exists unlocked_video;
drop table if exists download_quota;
drop table if exists channel_pack;

