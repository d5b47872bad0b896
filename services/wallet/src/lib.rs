//! Gems and pay-per-video credits as a ledger.
//!
//! The pure part: the wallet decider ([`domain`]), the gems calendar ([`calendar`]) and what
//! the wallet knows of subscriptions ([`subscriptions`]). The I/O (event store, consumers,
//! the Friday scheduler, the internal debit API) is wired around them.

pub mod calendar;
pub mod domain;
pub mod subscriptions;
