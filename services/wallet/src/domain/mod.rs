//! A user's wallet as a decider: two ledgers, gems and pay-per-video credits, on one stream.
//!
//! Balances are the sums of their ledger events and never go below zero. Every grant that
//! comes from outside is idempotent by its reference (a Friday grant by subscription and
//! week, a retention deal or purchase by its transaction); every debit by its idempotency
//! key, whose first outcome is kept as a [`DebitReceipt`] so a retry answers the same.
//!
//! The clock, the gems week, the subscription's standing and the configured amounts are
//! looked up by the caller and put in the command.
//!
//! [`command`] says what may be asked and what a refusal is, [`wallet`] what a wallet holds
//! and how its events change it, [`decide`] how a command is answered.

mod command;
mod decide;
mod wallet;

pub use command::*;
pub use decide::*;
pub use wallet::*;

#[cfg(test)]
mod model_based;

#[cfg(test)]
mod tests;
