-- Cancelled and ended are set by different events (proto_events' StandingChange, the one rule
-- every reader of subscription events folds), so each keeps the time of the event that last
-- set it: `status_at` now dates whether it has ended, `cancelled_at` whether it is cancelled.
alter table portal_subscription add column cancelled boolean not null default false;
alter table portal_subscription add column cancelled_at timestamptz;
update portal_subscription set cancelled = true, cancelled_at = status_at where status = 'cancelled';
