-- Whether a cancel came first, kept beside the standing: an ended standing hides it, and a
-- rebill that runs an expired subscription again leaves a cancel standing (proto_events'
-- SubscriptionStanding, the one rule every reader of subscription events folds).
alter table member_subscription add column cancelled boolean not null default false;
update member_subscription set cancelled = true where standing = 'cancelled';
