-- Listing indexes in the exact order the pages ask for (ties broken by video_id descending),
-- so a page is read straight off the index without an incremental sort.
drop index if exists video_site_newest;
drop index if exists video_newest;
drop index if exists video_site_rating;
drop index if exists video_site_award;
drop index if exists video_channel;
create index video_site_newest on video (site, release_date desc, video_id desc) where published;
create index video_newest on video (release_date desc, video_id desc) where published;
create index video_site_rating on video (site, rating desc, release_date desc, video_id desc) where published;
create index video_site_award on video (site, release_date desc, video_id desc) where published and award = 1;
create index video_channel on video (channel_id, release_date desc, video_id desc) where published;
