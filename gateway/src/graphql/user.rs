//! `user`: who is asking and what they may do (product.md, "Roles and abilities"), the same
//! CASL rule list the page's inline session carries, for @casl/ability in the browser.

use async_graphql::{Context, Object, SimpleObject};

use super::context::request;
use crate::viewer;

#[derive(Default)]
pub struct UserQuery;

/// The user's routing view.
#[derive(SimpleObject)]
pub struct User {
    pub is_authenticated: bool,
    /// CASL raw rules: later rules win; an inverted rule with a reason forbids.
    pub abilities: Vec<AbilityRule>,
}

/// One CASL raw rule.
#[derive(SimpleObject)]
pub struct AbilityRule {
    pub action: String,
    pub subject: String,
    /// CASL's MongoDB-style conditions (`{"site": {"$in": [...]}}`), when the rule has any.
    pub conditions: Option<async_graphql::Json<serde_json::Value>>,
    pub inverted: bool,
    pub reason: Option<String>,
}

impl From<access::Rule> for AbilityRule {
    fn from(rule: access::Rule) -> Self {
        AbilityRule {
            action: rule.action.to_owned(),
            subject: rule.subject.to_owned(),
            conditions: rule
                .conditions
                .as_ref()
                .map(|c| async_graphql::Json(serde_json::to_value(c).expect("conditions serialize"))),
            inverted: rule.inverted,
            reason: rule.reason.map(str::to_owned),
        }
    }
}

#[Object]
impl UserQuery {
    /// The signed-in user's (or the visitor's) abilities on this brand.
    async fn user(&self, ctx: &Context<'_>) -> async_graphql::Result<User> {
        let request = request(ctx);
        let profile = match request.viewer {
            Some(_) => Some(super::profile::of(ctx).await?),
            None => None,
        };
        let rules = viewer::rules(&request.site, profile);
        Ok(User { is_authenticated: profile.is_some(), abilities: rules.into_iter().map(AbilityRule::from).collect() })
    }
}
