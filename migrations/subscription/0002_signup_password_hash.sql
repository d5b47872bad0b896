-- The join form's password is kept only as its argon2id hash (the profile service's
-- passwords), and only while the signup waits: the sweep clears it once the account exists or
-- the signup is older than the pending-signup TTL (joins::PENDING_SIGNUP_TTL, 24 hours),
-- when a still-pending signup becomes 'expired'. A declined signup keeps its hash until then,
-- so an approval arriving after the decline still makes the account.
alter table signup rename column password to password_hash;
alter table signup drop constraint signup_status_check;
alter table signup add constraint signup_status_check
    check (status in ('pending', 'approved', 'denied', 'expired'));
-- Plaintext from before this migration is dropped; the signups it belonged to cannot be
-- completed any more.
update signup set status = 'expired' where status = 'pending';
update signup set password_hash = null where password_hash is not null;
create index signup_holding_hash on signup (created_at) where password_hash is not null;
