-- Devices that signed in to an account (OWASP's device cookie): the cookie holds a random
-- secret, only its SHA-256 is kept. A sign-in carrying a device of the account is counted on
-- the device alone, so other clients' failures do not lock the owner out. Security table,
-- not a read model.
create table trusted_device (
    token_hash bytea primary key,
    user_id uuid not null,
    created_at timestamptz not null default now()
);
create index trusted_device_user on trusted_device (user_id);
