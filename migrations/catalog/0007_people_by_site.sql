-- The search's name suggestions (performers and categories found by name) are filtered by
-- the row's `sites`, so a change to a performer's rating, counts or sites can only change the
-- suggestions of the sites it was or is on. Those changes now bump 'people:<site>' for each
-- of those sites instead of one 'people' scope every brand's search depended on: a rating on
-- a vixen video (which moves its performers' ratings) no longer invalidates the cached
-- searches of brands the performers are not on. A slug or name change still bumps 'names'
-- (every card and every search depends on it). The combined brand's search depends on every
-- scope, so it needs no scope of its own.
create or replace function read_generation_named() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        if exists (select 1 from new_rows) then
            perform bump_read_generation(array['names']
                || array(select distinct 'people:' || s from new_rows, unnest(sites) s));
        end if;
    elsif tg_op = 'DELETE' then
        if exists (select 1 from old_rows) then
            perform bump_read_generation(array['names']
                || array(select distinct 'people:' || s from old_rows, unnest(sites) s));
        end if;
    elsif exists ((select slug, name from new_rows except select slug, name from old_rows)
                  union all (select slug, name from old_rows except select slug, name from new_rows)) then
        perform bump_read_generation(array['names']
            || array(select 'people:' || s from new_rows, unnest(sites) s
                     union select 'people:' || s from old_rows, unnest(sites) s));
    elsif exists (select 1 from new_rows) then
        perform bump_read_generation(array(select 'people:' || s from new_rows, unnest(sites) s
                                           union select 'people:' || s from old_rows, unnest(sites) s));
    end if;
    return null;
end $$;
