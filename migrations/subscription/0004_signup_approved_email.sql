-- The join form asks whether an e-mail's signup was approved (its account is being made and
-- reaches the `account` table by event a moment later): one index range, not a scan.
create index signup_approved_email on signup (email) where status = 'approved';
