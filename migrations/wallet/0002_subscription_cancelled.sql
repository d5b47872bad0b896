-- Whether a cancel came first, kept beside the status: an ended status hides it, and a rebill
-- that runs an expired subscription again leaves a cancel standing (proto_events'
-- SubscriptionStanding, the one rule every reader of subscription events folds).
alter table subscription add column cancelled boolean not null default false;
update subscription set cancelled = true where status = 'cancelled';
