//! Read-side SQL: the profile's part of findOneUserProfile and the identity reads other
//! services make.

use chrono::{DateTime, Utc};
use proto_events::profile::SpecialAttributes;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::api::*;
use crate::badges::{self, BadgeFacts, Membership};
use crate::config::ProfileConfig;
use crate::user_type::user_type;
use crate::validation::is_internal_test_email;

#[derive(sqlx::FromRow, serde::Deserialize, Clone, Debug)]
pub struct ProfileRow {
    pub user_id: Uuid,
    pub email: String,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub site: String,
    pub registered_at: DateTime<Utc>,
    pub tandem_parent_user_id: Option<Uuid>,
    pub has_tandem_child_account: bool,
    pub autoplay_enabled: bool,
    pub has_email_consent: bool,
    pub email_consent_set: bool,
    pub terms_consent_given: bool,
    pub cams_consent_given: bool,
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    pub gems_intro_acknowledged_at: Option<DateTime<Utc>>,
    pub teaser_viewed: bool,
    pub texas_health_warning_acknowledged: bool,
    pub alabama_health_warning_acknowledged: bool,
    pub special_attributes: serde_json::Value,
    pub vip_invited: bool,
    pub vip_converted: bool,
}

#[derive(sqlx::FromRow, serde::Deserialize, Clone, Debug)]
pub struct SubscriptionRow {
    pub site: String,
    pub sites: Vec<String>,
    pub kind: String,
    pub is_free_limited_trial: bool,
    pub biller: String,
    pub active_since: DateTime<Utc>,
    pub active: bool,
    pub cancelled: bool,
    pub ended_at: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
}

/// The columns of a [`SubscriptionRow`], in every read of a user's subscriptions.
const SUBSCRIPTION_COLUMNS: &str =
    "site, sites, kind, is_free_limited_trial, biller, active_since, active, cancelled, ended_at, updated_at";

const PROFILE_COLUMNS: &str = "user_id, email, username, display_name, site, registered_at, tandem_parent_user_id,
    has_tandem_child_account, autoplay_enabled, has_email_consent, email_consent_set, terms_consent_given,
    cams_consent_given, relationship_status, relationship_role, gems_intro_acknowledged_at, teaser_viewed,
    texas_health_warning_acknowledged, alabama_health_warning_acknowledged, special_attributes, vip_invited,
    vip_converted";

pub async fn profile_row(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<ProfileRow>, sqlx::Error> {
    sqlx::query_as(&format!("select {PROFILE_COLUMNS} from user_profile where user_id = $1"))
        .bind(user_id)
        .fetch_optional(conn)
        .await
}

/// The subscriptions that count for a user: their own, or their tandem parent's.
pub async fn subscriptions(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<SubscriptionRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "select {SUBSCRIPTION_COLUMNS} from member_subscription where user_id = $1
         order by updated_at desc, active_since desc"
    ))
    .bind(user_id)
    .fetch_all(conn)
    .await
}

/// Sites of active member and trial subscriptions (porn-portal opens no site).
pub fn site_access(subs: &[SubscriptionRow]) -> Vec<String> {
    let mut sites: Vec<String> =
        subs.iter().filter(|s| s.active && s.kind != "porn-portal").flat_map(|s| s.sites.iter().cloned()).collect();
    sites.sort();
    sites.dedup();
    sites
}

/// Full access to a brand whose configuration shows the relationship section (wifey): the
/// fact the access rules call `has_active_wifey_subscription`.
pub fn has_relationship_brand_access(subs: &[SubscriptionRow]) -> bool {
    let tenants = tenants::global();
    site_access(subs).iter().any(|s| tenants.get(s).is_some_and(|t| t.features.relationship_section))
}

/// What the relationship-section rules (the access crate's, their one owner) need to know.
pub fn relationship_facts(
    is_admin: bool,
    subs: &[SubscriptionRow],
    is_tandem_child: bool,
) -> access::RelationshipFacts {
    access::RelationshipFacts {
        is_admin,
        has_active_wifey_subscription: has_relationship_brand_access(subs),
        is_tandem_child_account: is_tandem_child,
    }
}

/// `a` or `b`, stable per user.
pub fn ab_test_variant(user_id: Uuid) -> &'static str {
    if user_id.as_bytes()[15].is_multiple_of(2) {
        "a"
    } else {
        "b"
    }
}

/// The profile's part of findOneUserProfile for `user_id`: one statement.
pub async fn own_profile(
    pool: &PgPool,
    config: &ProfileConfig,
    user_id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<OwnProfile>, sqlx::Error> {
    type Parts = (Option<serde_json::Value>, serde_json::Value, serde_json::Value, Option<String>);
    let parts: Parts = sqlx::query_as(&format!(
        "with p as (select {PROFILE_COLUMNS} from user_profile where user_id = $1),
              owner as (select coalesce((select tandem_parent_user_id from p), $1) as id)
         select
             (select to_jsonb(p) from p),
             coalesce((select jsonb_agg(group_name order by group_name) from user_group where user_id = $1), '[]'),
             coalesce((select jsonb_agg(to_jsonb(s) order by s.updated_at desc, s.active_since desc)
                       from (select {SUBSCRIPTION_COLUMNS}
                             from member_subscription where user_id = (select id from owner)) s), '[]'),
             (select coalesce(display_name, username) from user_profile
              where user_id = (select tandem_parent_user_id from p))"
    ))
    .bind(user_id)
    .fetch_one(pool)
    .await?;
    let (profile, groups, subs, parent_name) = parts;
    let Some(profile) = profile else { return Ok(None) };
    let json = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    let facts = Facts {
        row: serde_json::from_value(profile).map_err(json)?,
        groups: serde_json::from_value(groups).map_err(json)?,
        subs: serde_json::from_value(subs).map_err(json)?,
        parent_name,
    };
    Ok(Some(assemble(facts, config, now)))
}

/// What a user's badges are computed from: their groups and special attributes, the
/// memberships among the subscriptions that count for them (porn-portal is no membership), and
/// when they registered.
pub fn badge_facts(
    groups: &[String],
    attributes: &SpecialAttributes,
    subs: &[SubscriptionRow],
    registered_at: DateTime<Utc>,
) -> BadgeFacts {
    let in_group = |g: &str| groups.iter().any(|x| x == g);
    BadgeFacts {
        memberships: subs
            .iter()
            .filter(|s| s.kind != "porn-portal")
            .map(|s| Membership {
                active_since: s.active_since,
                ended_at: (!s.active).then_some(s.ended_at.unwrap_or(s.updated_at)),
            })
            .collect(),
        moderator: in_group("admin") || in_group("commenteditor"),
        king: attributes.is_king_user,
        director: attributes.is_director_user,
        model: attributes.is_pornstar_user || attributes.model_id.is_some(),
        registered_at: Some(registered_at),
    }
}

/// What the profile's part is made from: its own rows, and the memberships (badges, the
/// relationship section) it keeps from the subscription service's events.
pub struct Facts {
    pub row: ProfileRow,
    pub groups: Vec<String>,
    pub subs: Vec<SubscriptionRow>,
    pub parent_name: Option<String>,
}

/// The profile's part from its facts: pure, so the rules are unit tests.
pub fn assemble(f: Facts, config: &ProfileConfig, now: DateTime<Utc>) -> OwnProfile {
    let row = &f.row;
    let user_id = row.user_id;
    let in_group = |g: &str| f.groups.iter().any(|x| x == g);
    let is_admin = in_group("admin");
    let is_guest = in_group("@paysites/guest-user");
    let is_tandem_child = row.tandem_parent_user_id.is_some();
    let attributes: SpecialAttributes = serde_json::from_value(row.special_attributes.clone()).unwrap_or_default();

    let relationship = relationship_facts(is_admin, &f.subs, is_tandem_child);
    let relationship_info = RelationshipInfo {
        relationship_status: row.relationship_status.clone(),
        relationship_role: row.relationship_role.clone(),
        is_visible: access::may_see_relationship_section(relationship),
        is_editable: access::may_edit_relationship(relationship),
    };
    // The e-mail consent prompt (product.md, "Account and profile") is for the two kinds the spec gives
    // a text: guests (18+, terms, privacy, e-mail marketing) and tandem users, parent or child
    // (18+, terms, privacy); never for an internal test domain, and only until answered.
    let is_tandem = is_tandem_child || row.has_tandem_child_account;
    let request_email = (is_guest || is_tandem) && !row.email_consent_set && !is_internal_test_email(&row.email);
    let request_terms = (is_guest || is_tandem_child) && !row.terms_consent_given;
    let request_cams = !row.cams_consent_given;
    let facts = badge_facts(&f.groups, &attributes, &f.subs, row.registered_at);
    OwnProfile {
        user_id,
        email: row.email.clone(),
        username: row.username.clone(),
        display_name: row.display_name.clone(),
        registered_at: row.registered_at,
        badges: badges::badges(&facts, config.launch_date, now).into_iter().map(|b| b.as_str().to_owned()).collect(),
        groups: f.groups.clone(),
        scopes: vec![if is_guest { "guest" } else { "member" }.to_owned()],
        ab_test_variant: ab_test_variant(user_id).to_owned(),
        is_telemetry_enabled: !is_internal_test_email(&row.email),
        autoplay_enabled: row.autoplay_enabled,
        relationship_status: row.relationship_status.clone(),
        relationship_role: row.relationship_role.clone(),
        relationship_info,
        has_email_consent: row.has_email_consent,
        tandem_subscription: TandemSubscription {
            has_tandem_child_account: row.has_tandem_child_account,
            is_tandem_child_account: is_tandem_child,
            tandem_parent_display_name: f.parent_name.clone(),
        },
        special_attributes: SpecialAttributesView {
            is_pornstar_user: attributes.is_pornstar_user,
            model_id: attributes.model_id,
            is_king_user: attributes.is_king_user,
            is_director_user: attributes.is_director_user,
            is_vip_user: attributes.is_vip_user || (row.vip_invited && !row.vip_converted),
            is_official_user: attributes.is_official_user,
        },
        gdpr: Consent {
            should_request_terms_consent: request_terms,
            should_request_email_consent: request_email,
            should_request_cams_consent: request_cams,
            request_terms_consent: request_terms,
            request_email_consent: request_email,
            request_cams_consent: request_cams,
            has_email_consent: row.has_email_consent,
        },
        is_guest_user: is_guest,
        modals: ModalFlags {
            gems_intro: row.gems_intro_acknowledged_at.is_some(),
            teaser_viewed: row.teaser_viewed,
            texas_health_warning_acknowledged: row.texas_health_warning_acknowledged,
            alabama_health_warning_acknowledged: row.alabama_health_warning_acknowledged,
        },
    }
}

/// Identity of many users at once (comment authors of a page cost one call).
pub async fn user_summaries(pool: &PgPool, ids: &[Uuid]) -> Result<Vec<UserSummary>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: Uuid,
        username: Option<String>,
        display_name: Option<String>,
        email: String,
        site: String,
        tandem_parent_user_id: Option<Uuid>,
        groups: Vec<String>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select p.user_id, p.username, p.display_name, p.email, p.site, p.tandem_parent_user_id,
                coalesce(array_agg(g.group_name order by g.group_name) filter (where g.group_name is not null), '{}') as groups
         from user_profile p left join user_group g on g.user_id = p.user_id
         where p.user_id = any($1)
         group by p.user_id",
    )
    .bind(ids)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| UserSummary {
            user_id: r.user_id,
            username: r.username,
            display_name: r.display_name,
            email: r.email,
            groups: r.groups,
            site: r.site,
            is_tandem_child_account: r.tandem_parent_user_id.is_some(),
            tandem_parent_user_id: r.tandem_parent_user_id,
        })
        .collect())
}

/// The public facts of many users at once, in one statement: their display name, badges and user type (a
/// page of comments costs one call). Unknown ids are left out. A tandem child's badges and type
/// come from the parent's subscriptions, as the rest of their profile does.
pub async fn public_profiles(
    pool: &PgPool,
    config: &ProfileConfig,
    ids: &[Uuid],
    now: DateTime<Utc>,
) -> Result<Vec<PublicProfile>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: Uuid,
        display_name: Option<String>,
        registered_at: DateTime<Utc>,
        special_attributes: serde_json::Value,
        groups: Vec<String>,
        subs: serde_json::Value,
    }
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select p.user_id, p.display_name, p.registered_at, p.special_attributes,
                coalesce((select array_agg(g.group_name order by g.group_name) from user_group g
                          where g.user_id = p.user_id), '{{}}') as groups,
                coalesce((select jsonb_agg(to_jsonb(s))
                          from (select {SUBSCRIPTION_COLUMNS}
                                from member_subscription
                                where user_id = coalesce(p.tandem_parent_user_id, p.user_id)) s), '[]') as subs
         from user_profile p
         where p.user_id = any($1)
         order by p.user_id"
    ))
    .bind(ids)
    .fetch_all(pool)
    .await?;
    let json = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    rows.into_iter()
        .map(|r| {
            let subs: Vec<SubscriptionRow> = serde_json::from_value(r.subs).map_err(json)?;
            let attributes: SpecialAttributes = serde_json::from_value(r.special_attributes).unwrap_or_default();
            let facts = badge_facts(&r.groups, &attributes, &subs, r.registered_at);
            Ok(PublicProfile {
                user_id: r.user_id,
                display_name: r.display_name.filter(|name| !name.trim().is_empty()),
                badges: badges::badges(&facts, config.launch_date, now),
                user_type: user_type(&r.groups, &subs),
            })
        })
        .collect()
}

/// The account a login names: a username, or an e-mail.
/// Whether a profile has `username` (the unique index `user_profile_username`).
pub async fn username_taken(pool: &PgPool, username: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from user_profile where username = $1)")
        .bind(username)
        .fetch_one(pool)
        .await
}

pub async fn find_login(pool: &PgPool, login: &str) -> Result<Option<(Uuid, Option<String>)>, sqlx::Error> {
    let login = login.trim().to_lowercase();
    sqlx::query_as(
        "select p.user_id, c.password_hash from user_profile p left join credential c on c.user_id = p.user_id
         where p.username = $1 or p.email = $1 limit 1",
    )
    .bind(login)
    .fetch_optional(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn row(user_id: Uuid) -> ProfileRow {
        ProfileRow {
            user_id,
            email: "jane@example.com".into(),
            username: Some("jane".into()),
            display_name: None,
            site: "wifey".into(),
            registered_at: Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap(),
            tandem_parent_user_id: None,
            has_tandem_child_account: false,
            autoplay_enabled: true,
            has_email_consent: false,
            email_consent_set: false,
            terms_consent_given: false,
            cams_consent_given: false,
            relationship_status: None,
            relationship_role: None,
            gems_intro_acknowledged_at: None,
            teaser_viewed: false,
            texas_health_warning_acknowledged: false,
            alabama_health_warning_acknowledged: false,
            special_attributes: serde_json::json!({}),
            vip_invited: false,
            vip_converted: false,
        }
    }

    fn sub(site: &str, kind: &str, active: bool) -> SubscriptionRow {
        SubscriptionRow {
            site: site.into(),
            sites: vec![site.into()],
            kind: kind.into(),
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            active_since: Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap(),
            active,
            cancelled: false,
            ended_at: (!active).then(|| Utc.with_ymd_and_hms(2025, 7, 1, 0, 0, 0).unwrap()),
            updated_at: Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap(),
        }
    }

    fn facts(row: ProfileRow, groups: &[&str], subs: Vec<SubscriptionRow>) -> Facts {
        Facts { row, groups: groups.iter().map(|g| (*g).to_owned()).collect(), subs, parent_name: None }
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 7, 12, 0, 0).unwrap()
    }

    #[test]
    fn a_new_account_has_the_defaults() {
        let p = assemble(facts(row(Uuid::now_v7()), &[], vec![]), &ProfileConfig::default(), now());
        assert!(p.autoplay_enabled);
        assert_eq!(p.scopes, ["member"]);
        assert!(!p.is_guest_user);
        assert!(p.badges.is_empty());
    }

    #[test]
    fn badges_count_the_memberships_kept_from_subscription_events() {
        let lapsed = assemble(
            facts(row(Uuid::now_v7()), &[], vec![sub("vixen", "member", false)]),
            &ProfileConfig::default(),
            now(),
        );
        let member = assemble(
            facts(row(Uuid::now_v7()), &[], vec![sub("vixen", "member", true)]),
            &ProfileConfig::default(),
            now(),
        );
        assert_eq!(member.badges, ["silver"]);
        assert_ne!(lapsed.badges, member.badges);
    }

    #[test]
    fn the_relationship_section_follows_section_6() {
        let cfg = ProfileConfig::default();
        let member = assemble(facts(row(Uuid::now_v7()), &[], vec![sub("wifey", "member", true)]), &cfg, now());
        assert!(member.relationship_info.is_visible && member.relationship_info.is_editable);
        let mut child_row = row(Uuid::now_v7());
        child_row.tandem_parent_user_id = Some(Uuid::now_v7());
        let child = assemble(facts(child_row, &[], vec![sub("wifey", "member", true)]), &cfg, now());
        assert!(child.relationship_info.is_visible && !child.relationship_info.is_editable);
        assert!(child.tandem_subscription.is_tandem_child_account);
        assert!(child.gdpr.should_request_terms_consent, "a tandem child is asked for the terms");
        let other = assemble(facts(row(Uuid::now_v7()), &[], vec![sub("vixen", "member", true)]), &cfg, now());
        assert!(!other.relationship_info.is_visible && !other.relationship_info.is_editable);
        let admin = assemble(facts(row(Uuid::now_v7()), &["admin"], vec![]), &cfg, now());
        assert!(admin.relationship_info.is_visible && admin.relationship_info.is_editable);
        assert!(admin.badges.contains(&"moderator".to_owned()));
    }

    #[test]
    fn a_guest_is_scoped_as_one() {
        let p =
            assemble(facts(row(Uuid::now_v7()), &["@paysites/guest-user"], vec![]), &ProfileConfig::default(), now());
        assert_eq!(p.scopes, ["guest"]);
        assert!(p.is_guest_user);
    }

    #[test]
    fn guests_and_tandem_users_are_asked_for_email_consent_except_on_test_domains() {
        let cfg = ProfileConfig::default();
        let asked = |r: ProfileRow, groups: &[&str]| {
            assemble(facts(r, groups, vec![]), &cfg, now()).gdpr.should_request_email_consent
        };
        assert!(asked(row(Uuid::now_v7()), &["@paysites/guest-user"]), "a guest");
        let mut child = row(Uuid::now_v7());
        child.tandem_parent_user_id = Some(Uuid::now_v7());
        assert!(asked(child.clone(), &[]), "a tandem child");
        let mut parent = row(Uuid::now_v7());
        parent.has_tandem_child_account = true;
        assert!(asked(parent, &[]), "a tandem parent");
        assert!(!asked(row(Uuid::now_v7()), &[]), "a member is not prompted (the account page's checkbox stays)");
        let mut tested = child.clone();
        tested.email = "child@paysite.test".into();
        assert!(!asked(tested, &[]), "an internal test domain");
        let mut answered = child;
        answered.email_consent_set = true;
        assert!(!asked(answered, &[]), "once answered");
    }
}
