//! The failed-password throttle, shared by sign-in and changePassword: after `max` failures
//! (remembered for the window) each further attempt must wait a delay that doubles with every
//! failure, from the latest one, up to the window. Counted per account (by user id once the
//! login names one), per client address, or per known device alone.

use super::*;

/// The wait before the first attempt past the free ones; each further failure doubles it.
pub const FIRST_DELAY: std::time::Duration = std::time::Duration::from_secs(2);

/// How long to wait after the latest of `failures`, when `free` may fail without delay.
pub fn delay_after(failures: u32, free: u32, cap: std::time::Duration) -> std::time::Duration {
    let Some(past) = failures.checked_sub(free) else { return std::time::Duration::ZERO };
    let factor = 1u32.checked_shl(past.min(31)).unwrap_or(u32::MAX);
    FIRST_DELAY.saturating_mul(factor).min(cap)
}

/// A login name that names no account.
pub fn account_subject(login: &str) -> String {
    format!("account:{}", login.trim().to_lowercase())
}

/// A device that signed in to the account before, by its cookie's stored hash.
pub fn device_subject(device_hash: &str) -> String {
    format!("device:{device_hash}")
}

/// An account, by its id: a sign-in naming it, or a signed-in user guessing the old password.
pub fn user_subject(user_id: Uuid) -> String {
    format!("user:{user_id}")
}

pub fn address_subject(address: &str) -> String {
    format!("address:{}", address.trim())
}

/// The outcome of [`reserve`].
pub enum Reservation {
    /// The attempt may go on; these failure rows count until [`release`] takes them back.
    Reserved(Vec<i64>),
    /// Too soon after the latest failure: try again after this long.
    Wait(std::time::Duration),
}

/// Reserves one attempt for each of `subjects`, unless one of them is still within its
/// delay. The reservation counts as a failure until [`release`] takes it back after a
/// correct password, so parallel guesses cannot all pass the check before any failure is
/// recorded: each subject's check and reservation run under its own advisory lock.
pub async fn reserve(state: &State, subjects: &[String]) -> Result<Reservation, sqlx::Error> {
    let window = state.config.login_window;
    let since = Utc::now() - secs(window);
    let mut sorted = subjects.to_vec();
    sorted.sort();
    sorted.dedup();
    let mut tx = state.pool.begin().await?;
    for subject in &sorted {
        sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 7301))").bind(subject).execute(&mut *tx).await?;
    }
    sqlx::query("delete from login_failure where subject = any($1) and failed_at <= $2")
        .bind(&sorted)
        .bind(since)
        .execute(&mut *tx)
        .await?;
    let counts: Vec<(i64, chrono::DateTime<Utc>)> =
        sqlx::query_as("select count(*), max(failed_at) from login_failure where subject = any($1) group by subject")
            .bind(&sorted)
            .fetch_all(&mut *tx)
            .await?;
    let now = Utc::now();
    let wait = counts
        .iter()
        .map(|(n, latest)| {
            let delay = delay_after(u32::try_from(*n).unwrap_or(u32::MAX), state.config.login_max_failures, window);
            let elapsed = (now - *latest).to_std().unwrap_or_default();
            delay.saturating_sub(elapsed)
        })
        .max()
        .unwrap_or_default();
    if !wait.is_zero() {
        tx.commit().await?;
        return Ok(Reservation::Wait(wait));
    }
    let ids: Vec<i64> = sqlx::query_scalar(
        "insert into login_failure (subject, failed_at) select s, now() from unnest($1::text[]) s returning id",
    )
    .bind(&sorted)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Reservation::Reserved(ids))
}

/// Takes back a reservation: the attempt succeeded.
pub async fn release(state: &State, ids: &[i64]) -> Result<(), sqlx::Error> {
    sqlx::query("delete from login_failure where id = any($1)").bind(ids).execute(&state.pool).await?;
    Ok(())
}

pub async fn clear(state: &State, subject: &str) -> Result<(), sqlx::Error> {
    sqlx::query("delete from login_failure where subject = $1").bind(subject).execute(&state.pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_past_the_free_failures_up_to_the_window() {
        let cap = std::time::Duration::from_secs(900);
        for n in 0..5 {
            assert_eq!(delay_after(n, 5, cap), std::time::Duration::ZERO, "{n}");
        }
        assert_eq!(delay_after(5, 5, cap), FIRST_DELAY);
        assert_eq!(delay_after(6, 5, cap), FIRST_DELAY * 2);
        assert_eq!(delay_after(8, 5, cap), FIRST_DELAY * 8);
        assert_eq!(delay_after(40, 5, cap), cap);
        assert_eq!(delay_after(u32::MAX, 5, cap), cap);
        let mut last = std::time::Duration::ZERO;
        for n in 0..100 {
            let delay = delay_after(n, 5, cap);
            assert!(delay >= last && delay <= cap, "{n}");
            last = delay;
        }
    }
}
