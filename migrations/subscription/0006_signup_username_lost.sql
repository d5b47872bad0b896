-- The join race (issue 25): the username was free when the visitor left for the biller but
-- taken when the approved sale arrived. The account is made without a username (the member
-- chooses one after signing in); the welcome data says so.
alter table signup add column username_lost boolean not null default false;
