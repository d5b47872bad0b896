//! Join: the join form's checks (product.md, "Sign-up and join"), the signup sent to the biller's payment page, and what
//! comes back: signup status, `welcomeCheck` and `/_signup-extern/{biller}`.

use hmac::{Hmac, KeyInit, Mac};
use profile_contract::validation as v;
use runtime::client::UpstreamError;
use sha2::Sha256;
use uuid::Uuid;

use crate::billers::form_encode;
use crate::config::JoinOption;
use crate::{BillingConfig, State};

pub use subscription_contract::api::{JoinOptions, JoinRequest, JoinStarted, SignupStatus, WelcomeData};

/// product.md, "Validation rules" join form messages.
pub const INVALID_JOIN_OPTION_MESSAGE: &str = "Invalid join option";
pub const INVALID_PAYMENT_OPTION_MESSAGE: &str = "Invalid payment option";
pub const MEMBERSHIP_UNAVAILABLE_MESSAGE: &str = "Membership unavailable";
pub const LOG_IN_MESSAGE: &str = "An account with this email address already exists. Please log in.";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    #[error("{}", v::INVALID_EMAIL_MESSAGE)]
    InvalidEmail,
    #[error("{}", v::PASSWORD_RULE_MESSAGE)]
    InvalidPassword,
    #[error("{}", v::INVALID_USERNAME_MESSAGE)]
    InvalidUsername,
    #[error("{INVALID_JOIN_OPTION_MESSAGE}")]
    InvalidJoinOption,
    #[error("{INVALID_PAYMENT_OPTION_MESSAGE}")]
    InvalidPaymentOption,
    #[error("{MEMBERSHIP_UNAVAILABLE_MESSAGE}")]
    MembershipUnavailable,
    #[error("{LOG_IN_MESSAGE}")]
    AccountExists,
    /// The profile service says another account has the username (product.md, "Validation rules" 'already taken').
    #[error("{}", v::USERNAME_TAKEN_MESSAGE)]
    UsernameTaken,
}

impl JoinError {
    pub fn code(&self) -> &'static str {
        match self {
            JoinError::InvalidEmail => "INVALID_EMAIL",
            JoinError::InvalidPassword => "INVALID_PASSWORD",
            JoinError::InvalidUsername => "INVALID_USERNAME",
            JoinError::InvalidJoinOption => "INVALID_JOIN_OPTION",
            JoinError::InvalidPaymentOption => "INVALID_PAYMENT_OPTION",
            JoinError::MembershipUnavailable => "MEMBERSHIP_UNAVAILABLE",
            JoinError::AccountExists => "ACCOUNT_EXISTS_LOG_IN",
            JoinError::UsernameTaken => "USERNAME_TAKEN",
        }
    }
}

/// The join options of `site`, or none for a site the platform does not have.
pub fn options(config: &BillingConfig, site: &str) -> Option<JoinOptions> {
    config.site_ids.contains_key(site).then(|| JoinOptions {
        site: site.to_owned(),
        site_id: config.site_id_of(site),
        default_multisite_package: config.packages.default.clone(),
        join_options: config.join_options_for(site).into_iter().cloned().collect(),
        vixen_plus_yearly_join_option_id: config.vixen_plus_yearly_join_option_id,
        multisite_upsell_join_option_id: config.multisite_upsell_join_option_id,
        trial_upgrade: config.trial_upgrade.clone(),
    })
}

/// The form's checks, in the order the form shows them, but the last (an account with the
/// e-mail, [`JoinError::AccountExists`]), which needs a lookup: they run before anything of the
/// request is used, so a NUL or another control character is the field's own message.
pub fn check(state: &State, r: &JoinRequest) -> Result<(), JoinError> {
    let email = v::normalize_email(&r.email);
    if !v::is_valid_email(&email) {
        return Err(JoinError::InvalidEmail);
    }
    if !v::is_valid_password(&r.password) {
        return Err(JoinError::InvalidPassword);
    }
    if r.username.as_deref().is_some_and(|u| !v::is_valid_username(u)) {
        return Err(JoinError::InvalidUsername);
    }
    let option = state.config.join_option(r.join_option_id).ok_or(JoinError::InvalidJoinOption)?;
    if !state.config.join_options_for(&r.site).iter().any(|o| o.id == option.id) {
        return Err(JoinError::MembershipUnavailable);
    }
    if !option.payment_options.contains(&r.payment_option) || state.config.biller(&r.payment_option).is_none() {
        return Err(JoinError::InvalidPaymentOption);
    }
    Ok(())
}

/// A tracking value (`ref`, `elm`, the affiliate's `nats`) as kept: one holding a control
/// character is no value the visitor can correct, so it is dropped, not refused.
fn tracking(value: &Option<String>) -> Option<String> {
    value.clone().filter(|v| !v.chars().any(char::is_control))
}

/// The affiliate value the sale carries to the biller and its postback: the join link's `nats`
/// when it has one, else the affiliate code of a `ujc` landing kept for this kind of sale,
/// `aff_code_multi` for a multisite package and `aff_code_single` for a brand (product.md, "Analytics and affiliates").
pub fn affiliate_value(config: &BillingConfig, option: &JoinOption, r: &JoinRequest) -> Option<String> {
    let code = if config.package(&option.site).is_some() { &r.aff_code_multi } else { &r.aff_code_single };
    tracking(&r.nats).filter(|n| !n.is_empty()).or_else(|| tracking(code).filter(|c| !c.is_empty()))
}

/// Why a join could not be recorded (not the form's fault).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Database(#[from] sqlx::Error),
    #[error("hashing the password: {0:#}")]
    Hash(#[source] anyhow::Error),
    #[error("the profile service could not check the username: {0}")]
    Profile(#[source] UpstreamError),
}

/// Records the signup and answers the biller's payment page to send the browser to.
pub async fn start(state: &State, r: &JoinRequest) -> Result<Result<JoinStarted, JoinError>, StartError> {
    if !state.config.site_ids.contains_key(&r.site) {
        return Ok(Err(JoinError::MembershipUnavailable));
    }
    if let Err(e) = check(state, r) {
        return Ok(Err(e));
    }
    let email = v::normalize_email(&r.email);
    if crate::queries::email_taken(&state.pool, &email).await? {
        return Ok(Err(JoinError::AccountExists));
    }
    // The username's owner is the profile service: it answers before the visitor pays.
    if let Some(username) = &r.username {
        match state.profile.check_account(username).await {
            Ok(()) => {}
            Err(UpstreamError::Refused { code, .. }) if code == "USERNAME_TAKEN" => {
                return Ok(Err(JoinError::UsernameTaken))
            }
            Err(UpstreamError::Refused { code, .. }) if code == "INVALID_USERNAME" => {
                return Ok(Err(JoinError::InvalidUsername))
            }
            Err(e) => return Err(StartError::Profile(e)),
        }
    }
    let option = state.config.join_option(r.join_option_id).expect("checked");
    let (page_ref, elm) = (tracking(&r.page_ref), tracking(&r.elm));
    let nats = affiliate_value(&state.config, option, r);
    let biller = state.config.biller(&r.payment_option).expect("checked");
    let (signup_id, user_id) = (Uuid::now_v7(), Uuid::now_v7());
    // Only the hash is kept, in the profile service's format: the account is made with it.
    let password_hash = state.passwords.hash(&r.password).await.map_err(StartError::Hash)?;
    sqlx::query(
        "insert into signup (signup_id, user_id, email, username, password_hash, site, join_option_id, biller, ref, elm,
             nats)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(signup_id)
    .bind(user_id)
    .bind(&email)
    .bind(&r.username)
    .bind(&password_hash)
    .bind(&r.site)
    .bind(option.id as i32)
    .bind(&biller.name)
    .bind(&page_ref)
    .bind(&elm)
    .bind(&nats)
    .execute(&state.pool)
    .await?;
    let page = biller.payment_page.replace("{sandbox}", &state.config.sandbox_url).replace("{biller}", &biller.name);
    let mut query = vec![
        ("signupId", signup_id.to_string()),
        ("site", r.site.clone()),
        ("joinOptionId", option.id.to_string()),
        ("price", option.price.clone()),
        ("currency", option.currency.clone()),
        ("email", email),
    ];
    if let Some(u) = &r.username {
        query.push(("username", u.clone()));
    }
    if let Some(n) = nats {
        query.push(("nats", n));
    }
    let query: Vec<String> = query.into_iter().map(|(k, v)| format!("{k}={}", form_encode(&v))).collect();
    Ok(Ok(JoinStarted { signup_id, location: format!("{page}?{}", query.join("&")) }))
}

/// How long a signup may wait for its biller. Past it a pending signup is `expired` (an
/// approval arriving later is refused and the buyer joins again) and the password hash of any
/// signup is erased; checked when a postback reads the signup, and swept every
/// [`SWEEP_INTERVAL`].
pub const PENDING_SIGNUP_TTL: chrono::Duration = chrono::Duration::hours(24);
/// How often the sweep runs.
pub const SWEEP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(600);

/// Expires the signups older than [`PENDING_SIGNUP_TTL`] and erases their password hashes:
/// how many rows it changed.
pub async fn sweep(state: &State) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "update signup set password_hash = null,
             status = case when status = 'pending' then 'expired' else status end
         where password_hash is not null and created_at < $1",
    )
    .bind(state.clock.now() - PENDING_SIGNUP_TTL)
    .execute(&state.pool)
    .await?;
    Ok(done.rows_affected())
}

/// The sweep as the service's background job.
pub fn sweeper(state: State) -> runtime::service::Job {
    Box::new(move |cancel: tokio_util::sync::CancellationToken| {
        Box::pin(async move {
            loop {
                match sweep(&state).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(signups = n, "expired signups swept"),
                    Err(e) => tracing::warn!(error = %e, "signup sweep failed"),
                }
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = tokio::time::sleep(SWEEP_INTERVAL) => {}
                }
            }
        })
    })
}

/// `hashedMemberId`: the member id signed with the biller's shared secret, so the biller (or
/// the sandbox) can put it in the welcome redirect and nobody can guess another member's.
pub fn hashed_member_id(config: &BillingConfig, biller: &str, member_id: &str) -> Option<String> {
    let biller = config.biller(biller)?;
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(biller.secret.expose().as_bytes()).expect("key");
    mac.update(b"welcome:");
    mac.update(member_id.as_bytes());
    Some(mac.finalize().into_bytes()[..16].iter().map(|b| format!("{b:02x}")).collect())
}

/// Constant-time check of a `hashedMemberId` against one biller's.
pub fn member_id_matches(state: &State, biller: &str, member_id: &str, hashed: &str) -> bool {
    let Some(expected) = hashed_member_id(&state.config, biller, member_id) else { return false };
    expected.len() == hashed.len() && expected.bytes().zip(hashed.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[derive(sqlx::FromRow)]
struct SignupRow {
    signup_id: Uuid,
    biller: String,
    user_id: Uuid,
    username: Option<String>,
    site: String,
    join_option_id: i32,
    status: String,
    reason: Option<String>,
    member_id: Option<String>,
    transaction_id: Option<String>,
    decided_at: Option<chrono::DateTime<chrono::Utc>>,
    username_lost: bool,
}

const SIGNUP_COLUMNS: &str = "signup_id, biller, user_id, username, site, join_option_id, status, reason, member_id, \
     transaction_id, decided_at, username_lost";

/// How long after the biller's approval the welcome link (memberId + hashedMemberId, in the
/// browser's address bar and history) still signs the new member in. Later the welcome data
/// is still answered, without an autologin id: the member logs in.
pub const WELCOME_AUTOLOGIN_WINDOW: chrono::Duration = chrono::Duration::hours(1);

fn status_of(state: &State, row: SignupRow, autologin_id: Option<String>) -> SignupStatus {
    let option = state.config.join_option(row.join_option_id as u32);
    let site_id = option.and_then(|o| state.config.site_id_of(&o.site)).or_else(|| state.config.site_id_of(&row.site));
    let approved = row.status == "approved";
    SignupStatus {
        signup_id: row.signup_id,
        status: row.status.clone(),
        reason: row.reason.clone(),
        welcome: WelcomeData {
            hashed_member_id: row.member_id.as_deref().and_then(|m| hashed_member_id(&state.config, &row.biller, m)),
            memberid: row.member_id,
            username: row.username,
            site_id,
            is_welcome: approved,
            is_trial: option.is_some_and(|o| o.kind == "trial"),
            autologin_id,
            traffik_junky_transaction_id: if approved { row.transaction_id } else { None },
            username_lost: row.username_lost,
        },
    }
}

pub async fn signup_status(state: &State, signup_id: Uuid) -> Result<Option<SignupStatus>, sqlx::Error> {
    let row: Option<SignupRow> = sqlx::query_as(&format!("select {SIGNUP_COLUMNS} from signup where signup_id = $1"))
        .bind(signup_id)
        .fetch_optional(&state.pool)
        .await?;
    Ok(row.map(|r| status_of(state, r, None)))
}

#[derive(Debug, thiserror::Error)]
pub enum WelcomeError {
    #[error("no such member")]
    NotFound,
    #[error("the biller declined the signup: {0}")]
    Denied(String),
    #[error("{0}")]
    Database(#[from] sqlx::Error),
    #[error("the autologin token could not be issued: {0}")]
    Profile(#[source] runtime::client::UpstreamError),
}

/// `welcomeCheck(site, memberId, hashedMemberId)`: while the account is being created the
/// answer is not welcome yet (the page polls every 5 s, 24 times); once it is, an autologin id.
pub async fn welcome_check(
    state: &State,
    site: &str,
    member_id: &str,
    hashed: &str,
) -> Result<SignupStatus, WelcomeError> {
    let row: Option<SignupRow> = sqlx::query_as(&format!(
        "select {SIGNUP_COLUMNS} from signup where member_id = $1 order by decided_at desc nulls last limit 1"
    ))
    .bind(member_id)
    .fetch_optional(&state.pool)
    .await?;
    let Some(row) = row.filter(|r| member_id_matches(state, &r.biller, member_id, hashed)) else {
        // The redirect can beat the postback: a genuine member id (signed by one of the
        // billers) is "not yet"; anything else is unknown.
        if state.config.billers.keys().any(|b| member_id_matches(state, b, member_id, hashed)) {
            return Ok(SignupStatus {
                signup_id: Uuid::nil(),
                status: "pending".into(),
                reason: None,
                welcome: WelcomeData {
                    memberid: Some(member_id.to_owned()),
                    hashed_member_id: Some(hashed.to_owned()),
                    username: None,
                    site_id: state.config.site_id_of(site),
                    is_welcome: false,
                    is_trial: false,
                    autologin_id: None,
                    traffik_junky_transaction_id: None,
                    username_lost: false,
                },
            });
        }
        return Err(WelcomeError::NotFound);
    };
    match row.status.as_str() {
        "approved" => {
            let fresh = row.decided_at.is_some_and(|at| chrono::Utc::now() - at <= WELCOME_AUTOLOGIN_WINDOW);
            if !fresh {
                return Ok(status_of(state, row, None));
            }
            // Once per signup, and for the signup's own brand: a later call, or one naming
            // another brand, gets the welcome data without a token.
            if !site.eq_ignore_ascii_case(&row.site) {
                return Ok(status_of(state, row, None));
            }
            let claimed: Option<i32> = sqlx::query_scalar(
                "update signup set autologin_issued_at = now()
                 where signup_id = $1 and autologin_issued_at is null returning 1",
            )
            .bind(row.signup_id)
            .fetch_optional(&state.pool)
            .await?;
            if claimed.is_none() {
                return Ok(status_of(state, row, None));
            }
            match state.profile.issue_autologin(row.user_id, &row.site).await {
                Ok(issued) => Ok(status_of(state, row, Some(issued.al_token))),
                Err(e) => {
                    // Nothing was issued: the next call may try again.
                    sqlx::query("update signup set autologin_issued_at = null where signup_id = $1")
                        .bind(row.signup_id)
                        .execute(&state.pool)
                        .await?;
                    Err(WelcomeError::Profile(e))
                }
            }
        }
        "denied" => Err(WelcomeError::Denied(row.reason.unwrap_or_default())),
        _ => Ok(status_of(state, row, None)),
    }
}
