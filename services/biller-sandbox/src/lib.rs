//! The biller sandbox: a local stand-in for every biller (EPOCH, SEGPAY, VXNBILL, CENTROBILL,
//! ECHST, SUPPORTSK, SPIZOO, RGNATIVE), for development, demos and tests.
//!
//! - `GET /pay/{BILLER}`: the payment page a join form sends the browser to (the subscription
//!   service's join answer), with approve, decline and decline-with-a-reason.
//! - `POST /pay/{BILLER}`: the decision. The sandbox sends the biller's signed postback to the
//!   subscription service (`POST {subscription}/billers/{BILLER}/postback`, in that biller's
//!   format, with that biller's shared secret), then redirects the browser to the brand's
//!   `/_signupsuccess` with the welcome data, or `/_signupdenial` with the reason.
//! - `POST /sandbox/members/{memberId}/{action}`: rebill, rebill-failed, cancel, reactivate,
//!   trial-conversion, upgrade, chargeback, refund, expire, on demand, so every state can be
//!   reached.
//! - `GET /card-update/{BILLER}`: the card update page `creditCardUpdate` points at.
//! - `POST /v1/outgoing-upsells-oneclick/cams`: the payments host's cams one-click call (the
//!   gateway's `{payments host}` passes it here locally): the /cams route's query plus
//!   `email` and `siteName` in, the cams partner's one-click `url` out (400 without a valid
//!   e-mail or a brand of the platform); `GET /partners/cams` is that partner's landing.

use std::sync::Arc;

use axum::{
    extract::{Form, Path, Query, State},
    http::{header, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use proto_events::subscription::MembershipKind;
use runtime::service::{BoxFuture, Service, ServiceContext, ServiceDef};
use serde::Deserialize;
use serde_json::json;
use sqlx::{migrate::Migrator, PgPool};
use subscription::billers::{self, form_encode, Outgoing};
use subscription::domain::Step;
use subscription::BillingConfig;
use uuid::Uuid;

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sandbox");

/// `sandbox` (a schema name cannot hold the crate's dash); port 8090.
pub static SERVICE: ServiceDef = ServiceDef {
    name: "sandbox",
    port: 8090,
    migrations: &MIGRATIONS,
    queues: &[],
    read_models: Vec::new,
    build,
    seed: None,
};

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let production = ctx.settings.environment == runtime::config::Environment::Production;
        // Anyone who reaches the sandbox gets correctly signed postbacks: never in production.
        anyhow::ensure!(!production, "the biller sandbox does not run with PAYSITE_ENV=production");
        let config = BillingConfig::from_env(production)?;
        let state = Sandbox::new(
            ctx.pool,
            config,
            runtime::config::service_url("subscription", 8102),
            std::env::var("PAYSITE_BRAND_ORIGIN").unwrap_or_else(|_| DEFAULT_BRAND_ORIGIN.to_owned()),
        );
        Ok(Service::new(router(state), vec![], vec![]))
    })
}

/// Where the browser lands after paying: the brand's site (`{brand}` is the brand key).
pub const DEFAULT_BRAND_ORIGIN: &str = "http://{brand}.localhost:8080";

#[derive(Clone)]
pub struct Sandbox {
    pub pool: PgPool,
    pub config: Arc<BillingConfig>,
    /// The subscription service's base URL.
    pub subscription_url: String,
    pub brand_origin: String,
    http: reqwest::Client,
}

impl Sandbox {
    pub fn new(pool: PgPool, config: BillingConfig, subscription_url: String, brand_origin: String) -> Self {
        let http =
            runtime::tls::client_builder().timeout(std::time::Duration::from_secs(10)).build().expect("http client");
        Sandbox { pool, config: Arc::new(config), subscription_url, brand_origin, http }
    }

    fn origin_of(&self, site: &str) -> String {
        self.brand_origin.replace("{brand}", site)
    }

    /// Signs `out` as `biller` and posts it to the subscription service: its status and answer.
    pub async fn send(&self, biller: &str, out: &Outgoing) -> Result<(u16, String), SandboxError> {
        let b = self.config.biller(biller).ok_or(SandboxError::UnknownBiller)?;
        let signed = billers::encode(b, out, chrono::Utc::now().timestamp());
        let mut request = self
            .http
            .post(format!("{}/billers/{biller}/postback", self.subscription_url))
            .header(header::CONTENT_TYPE, signed.content_type)
            .body(signed.body);
        if let Some(h) = signed.signature_header {
            request = request.header(billers::SIGNATURE_HEADER, h);
        }
        let response = request.send().await.map_err(|e| SandboxError::Subscription(e.to_string()))?;
        let status = response.status().as_u16();
        Ok((status, response.text().await.unwrap_or_default()))
    }
}

pub fn router(state: Sandbox) -> Router {
    Router::new()
        .route("/pay/{biller}", get(payment_page).post(decide))
        .route("/sandbox/members/{member_id}/{action}", post(on_demand))
        .route("/card-update/{biller}", get(card_update))
        .route("/v1/outgoing-upsells-oneclick/cams", post(cams_oneclick))
        .route("/partners/cams", get(cams_partner))
        .with_state(state)
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("no such biller")]
    UnknownBiller,
    #[error("no such member")]
    UnknownMember,
    #[error("no such action")]
    UnknownAction,
    #[error("no such site")]
    UnknownSite,
    #[error("the subscription service did not take the postback: {0}")]
    Subscription(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl IntoResponse for SandboxError {
    fn into_response(self) -> Response {
        let status = self.status();
        let code = match &self {
            SandboxError::UnknownBiller
            | SandboxError::UnknownMember
            | SandboxError::UnknownAction
            | SandboxError::UnknownSite => "NOT_FOUND",
            SandboxError::Subscription(_) => "SUBSCRIPTION_REFUSED",
            SandboxError::Database(_) => "INTERNAL",
        };
        (status, Json(json!({ "code": code, "message": self.to_string() }))).into_response()
    }
}

/// A failure on a page the buyer's browser shows (the payment page and its decision): the
/// biller's own words on an HTML page, never the JSON of an API.
#[derive(Debug)]
pub struct PageError(pub SandboxError);

impl From<SandboxError> for PageError {
    fn from(e: SandboxError) -> Self {
        PageError(e)
    }
}

impl From<sqlx::Error> for PageError {
    fn from(e: sqlx::Error) -> Self {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let status = self.0.status();
        let message = match &self.0 {
            SandboxError::Subscription(_) => {
                "Your payment was approved, but the site could not finish setting up your membership. \
                 You will not be charged twice: please contact the site's support."
            }
            SandboxError::UnknownBiller | SandboxError::UnknownSite => "This payment page does not exist.",
            _ => "Something went wrong on the payment page. Please try again.",
        };
        tracing::warn!(error = %self.0, "payment page failed");
        let page = format!(
            r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment</title></head>
<body><h1>Payment</h1><p role="alert">{}</p></body></html>"#,
            escape(message)
        );
        (status, Html(page)).into_response()
    }
}

impl SandboxError {
    fn status(&self) -> StatusCode {
        match self {
            SandboxError::UnknownBiller
            | SandboxError::UnknownMember
            | SandboxError::UnknownAction
            | SandboxError::UnknownSite => StatusCode::NOT_FOUND,
            SandboxError::Subscription(_) => StatusCode::BAD_GATEWAY,
            SandboxError::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// What the join answer puts in the payment page's query.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub signup_id: Uuid,
    pub site: String,
    pub join_option_id: u32,
    #[serde(default)]
    pub price: Option<String>,
    #[serde(default)]
    pub currency: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub nats: Option<String>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

async fn payment_page(
    State(state): State<Sandbox>,
    Path(biller): Path<String>,
    Query(p): Query<Payment>,
) -> Result<Html<String>, PageError> {
    state.config.biller(&biller).ok_or(SandboxError::UnknownBiller)?;
    let hidden: String = [
        ("signupId", p.signup_id.to_string()),
        ("site", p.site.clone()),
        ("joinOptionId", p.join_option_id.to_string()),
        ("email", p.email.clone().unwrap_or_default()),
        ("username", p.username.clone().unwrap_or_default()),
        ("nats", p.nats.clone().unwrap_or_default()),
    ]
    .iter()
    .map(|(k, v)| format!(r#"<input type="hidden" name="{k}" value="{}">"#, escape(v)))
    .collect();
    let price = format!("{} {}", p.price.as_deref().unwrap_or(""), p.currency.as_deref().unwrap_or(""));
    Ok(Html(format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{biller} sandbox</title></head>
<body><h1>{biller} (sandbox)</h1><p>{} on {} for {}</p>
<form method="post" action="/pay/{biller}">{hidden}
<button name="outcome" value="approve">Approve</button>
<button name="outcome" value="decline">Decline</button>
<label>Reason <input name="reason" value="Insufficient funds"></label>
<button name="outcome" value="decline-with-reason">Decline with reason</button>
</form></body></html>"#,
        escape(&p.email.clone().unwrap_or_default()),
        escape(&p.site),
        escape(&price),
    )))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Decision {
    signup_id: Uuid,
    site: String,
    join_option_id: u32,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    nats: Option<String>,
    outcome: String,
    #[serde(default)]
    reason: Option<String>,
}

/// Approve or decline: the signed postback first, then the browser's redirect.
async fn decide(
    State(state): State<Sandbox>,
    Path(biller): Path<String>,
    Form(d): Form<Decision>,
) -> Result<Response, PageError> {
    state.config.biller(&biller).ok_or(SandboxError::UnknownBiller)?;
    // The browser is sent back to this brand's host: only a brand of the platform, never a
    // host named by the form (an open redirect carrying the welcome data).
    if state.config.site_id_of(&d.site).is_none() {
        return Err(SandboxError::UnknownSite.into());
    }
    let member_id = format!("SBX-{}", &Uuid::now_v7().simple().to_string()[16..]);
    let option = state.config.join_option(d.join_option_id);
    let step = match d.outcome.as_str() {
        "approve" => Ok(Step::Initial {
            kind: if option.is_some_and(|o| o.kind == "trial") {
                MembershipKind::Trial
            } else {
                MembershipKind::Member
            },
            free_limited_trial: option.is_some_and(|o| o.free_limited_trial),
        }),
        "decline" => Err("DECLINED".to_owned()),
        _ => Err(d.reason.clone().filter(|r| !r.trim().is_empty()).unwrap_or_else(|| "DECLINED".to_owned())),
    };
    let approved = step.is_ok();
    if approved {
        sqlx::query(
            "insert into sandbox_member (member_id, biller, site, join_option_id, signup_id, sent) values ($1, $2, $3, $4, $5, 1)",
        )
        .bind(&member_id)
        .bind(&biller)
        .bind(&d.site)
        .bind(d.join_option_id as i32)
        .bind(d.signup_id)
        .execute(&state.pool)
        .await?;
    }
    let out = Outgoing {
        subscription_ref: member_id.clone(),
        transaction_id: format!("{member_id}-0"),
        step: step.clone(),
        site: Some(d.site.clone()),
        join_option_id: Some(d.join_option_id),
        email: None,
        username: d.username.clone().filter(|u| !u.is_empty()),
        user_id: None,
        signup_id: Some(d.signup_id),
        nats_code: d.nats.clone().filter(|n| !n.is_empty()),
    };
    let (status, answer) = state.send(&biller, &out).await?;
    if status != 200 {
        return Err(SandboxError::Subscription(format!("{status} {answer}")).into());
    }
    let site_id = state.config.site_id_of(option.map(|o| o.site.as_str()).unwrap_or(&d.site)).unwrap_or_default();
    let origin = state.origin_of(&d.site);
    let location = match step {
        Ok(_) => {
            let hashed = subscription::joins::hashed_member_id(&state.config, &biller, &member_id).unwrap_or_default();
            let is_trial = option.is_some_and(|o| o.kind == "trial");
            format!(
                "{origin}/_signupsuccess?memberid={}&hashedMemberId={hashed}&username={}&siteId={site_id}&isTrial={is_trial}",
                form_encode(&member_id),
                form_encode(d.username.as_deref().unwrap_or("")),
            )
        }
        Err(reason) => format!("{origin}/_signupdenial?siteId={site_id}&reason={}", form_encode(&reason)),
    };
    Ok((StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response())
}

/// The steps that can be triggered on demand, by their path names.
pub fn step_of(action: &str) -> Option<Step> {
    Some(match action {
        "rebill" => Step::Rebill,
        "rebill-failed" => Step::RebillFailed,
        "cancel" => Step::Cancel,
        "reactivate" => Step::Reactivation { retention_offer_name: None, offered_gems: 0 },
        "trial-conversion" => Step::TrialConversion,
        "upgrade" => Step::Upgrade,
        "chargeback" => Step::Chargeback,
        "refund" => Step::Refund,
        "expire" => Step::Expire,
        _ => return None,
    })
}

async fn on_demand(
    State(state): State<Sandbox>,
    Path((member_id, action)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, SandboxError> {
    let step = step_of(&action).ok_or(SandboxError::UnknownAction)?;
    let row: Option<(String, String, Option<i32>, i32)> = sqlx::query_as(
        "update sandbox_member set sent = sent + 1 where member_id = $1 returning biller, site, join_option_id, sent - 1",
    )
    .bind(&member_id)
    .fetch_optional(&state.pool)
    .await?;
    let (biller, site, join_option_id, n) = row.ok_or(SandboxError::UnknownMember)?;
    let out = Outgoing {
        subscription_ref: member_id.clone(),
        transaction_id: format!("{member_id}-{n}"),
        step: Ok(step),
        site: Some(site),
        join_option_id: join_option_id.map(|j| j as u32),
        email: None,
        username: None,
        user_id: None,
        signup_id: None,
        nats_code: None,
    };
    let (status, answer) = state.send(&biller, &out).await?;
    if status != 200 {
        return Err(SandboxError::Subscription(format!("{status} {answer}")));
    }
    Ok(Json(json!({ "memberId": member_id, "action": action, "transactionId": out.transaction_id, "answer": answer })))
}

#[derive(Deserialize)]
struct CardQuery {
    #[serde(default)]
    member: String,
}

async fn card_update(
    State(state): State<Sandbox>,
    Path(biller): Path<String>,
    Query(q): Query<CardQuery>,
) -> Result<Html<String>, SandboxError> {
    state.config.biller(&biller).ok_or(SandboxError::UnknownBiller)?;
    Ok(Html(format!(
        "<!doctype html><html lang=\"en\"><body><h1>{biller} (sandbox)</h1><p>Card on file for member {} updated.</p></body></html>",
        escape(&q.member)
    )))
}

/// `POST /v1/outgoing-upsells-oneclick/cams`: `{url}` of the cams partner's one-click join for
/// the member, carrying the click id (`gas_cid`) and tour link code of the /cams query.
async fn cams_oneclick(
    State(state): State<Sandbox>,
    body: Result<Json<serde_json::Map<String, serde_json::Value>>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let refuse = |message: &str| {
        (StatusCode::BAD_REQUEST, Json(json!({ "code": "BAD_REQUEST", "message": message }))).into_response()
    };
    let Ok(Json(body)) = body else { return refuse("the body must be a JSON object") };
    let text = |key: &str| body.get(key).and_then(|v| v.as_str()).map(str::trim).filter(|v| !v.is_empty());
    let Some(email) = text("email").filter(|e| profile_contract::validation::is_valid_email(e)) else {
        return refuse("a valid email is required");
    };
    let Some(site) = text("siteName").filter(|s| state.config.site_id_of(s).is_some()) else {
        return refuse("siteName must be a brand of the platform");
    };
    let mut query = vec![("email", email), ("site", site)];
    for key in ["gas_cid", "tour_link_code"] {
        if let Some(v) = text(key) {
            query.push((key, v));
        }
    }
    let query: Vec<String> = query.into_iter().map(|(k, v)| format!("{k}={}", form_encode(v))).collect();
    let base = state.config.cams_oneclick_url.replace("{sandbox}", &state.config.sandbox_url);
    Json(json!({ "url": format!("{base}?{}", query.join("&")) })).into_response()
}

#[derive(Deserialize)]
struct CamsQuery {
    #[serde(default)]
    email: String,
    #[serde(default)]
    site: String,
}

/// The cams partner's landing (sandbox).
async fn cams_partner(Query(q): Query<CamsQuery>) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><body><h1>Cams partner (sandbox)</h1><p>One-click join for {} from {}.</p></body></html>",
        escape(&q.email),
        escape(&q.site)
    ))
}
