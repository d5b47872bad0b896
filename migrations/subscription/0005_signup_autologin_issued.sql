-- When the welcome data's autologin token was issued: once per signup (issue 21).
alter table signup add column autologin_issued_at timestamptz;
