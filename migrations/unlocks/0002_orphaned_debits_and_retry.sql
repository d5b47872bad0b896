-- Debits that went through but opened nothing (`UnlockDebitOrphaned`): an unlock given up
-- before its debit went through, or whose target was already held. Read model of the
-- unlocks stream (rebuildable); the operator's list of debits to refund.
create table orphaned_debit (
    unlock_id uuid primary key,
    user_id uuid not null,
    target_kind text not null check (target_kind in ('channel_pack', 'video')),
    target_id uuid not null,
    asset text not null check (asset in ('gems', 'credits')),
    amount integer not null,
    reason text not null,
    orphaned_at timestamptz not null
);
create index orphaned_debit_at on orphaned_debit (orphaned_at);

-- The reconciler's bookkeeping, not a read model (no event writes it, a rebuild leaves it):
-- how often a pending unlock was tried and when to try again, so an unlock that never
-- resolves backs off instead of staying at the head of the work list.
create table reconcile_attempt (
    unlock_id uuid primary key,
    attempts integer not null,
    next_attempt_at timestamptz not null,
    last_error text not null
);
create index reconcile_attempt_next on reconcile_attempt (next_attempt_at);
