//! The browser reads `user.abilities` with @casl/ability; the server answers with `can`. These
//! tests evaluate the serialised rule list with a MongoDB-subset evaluator written against the
//! JSON (tests/common), and require the same answer as `can` for every user × resource ×
//! ability, so the browser cannot see a different answer than the server enforces.

mod common;

use access::{abilities, can, Ability};
use common::{any_features, any_resource, any_user, casl_can, resource, resource_json, user, COLUMNS, VOCABULARY};
use proptest::prelude::*;
use serde_json::{json, Value};

const RESOURCES: [&str; 10] = ["vS", "vO", "vU", "vF", "cL", "cU", "tD", "tO", "pk1", "pk2"];

#[test]
fn the_browser_and_the_server_agree_on_the_role_table_grid() {
    let features = tenants::Features::default();
    let mut checked = 0;
    for column in COLUMNS {
        let u = user(column);
        let rules = serde_json::to_value(abilities(&u, &features)).unwrap();
        for (action, subject) in VOCABULARY {
            assert_eq!(casl_can(&rules, action, subject, None), can(&u, &features, action, subject, None));
            for name in RESOURCES {
                let r = resource(name);
                let browser = casl_can(&rules, action, subject, Some(&resource_json(&r)));
                assert_eq!(
                    browser,
                    can(&u, &features, action, subject, Some(&r)),
                    "{column} {action} {subject} {name}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, COLUMNS.len() * VOCABULARY.len() * RESOURCES.len());
}

#[test]
fn a_rule_serialises_as_a_casl_raw_rule() {
    let rules = serde_json::to_value(abilities(&user("sub"), &tenants::Features::default())).unwrap();
    let play: Vec<&Value> =
        rules.as_array().unwrap().iter().filter(|r| r["action"] == "play" && r["subject"] == "Video").collect();
    assert_eq!(
        play[0],
        &json!({"action": "play", "subject": "Video",
                "conditions": {"site": {"$in": ["channels", "vixen"]}, "channelPackId": {"$in": [null, "p1"]}}})
    );
    assert_eq!(play[1], &json!({"action": "play", "subject": "Video", "conditions": {"id": {"$in": ["u1"]}}}));
    let child = serde_json::to_value(abilities(&user("child"), &tenants::Features::default())).unwrap();
    assert_eq!(
        child.as_array().unwrap().last().unwrap(),
        &json!({"action": "see", "subject": "Channels", "inverted": true,
                "reason": "Channels are hidden for tandem child accounts"})
    );
    let anon = serde_json::to_value(abilities(&user("anon"), &tenants::Features::default())).unwrap();
    assert_eq!(anon[0], json!({"action": "play", "subject": "Trailer", "conditions": {"denied": {"$ne": true}}}));
    let guest = serde_json::to_value(abilities(&user("ppG"), &tenants::Features::default())).unwrap();
    assert!(guest.as_array().unwrap().contains(&json!({"action": "play", "subject": "Video",
        "conditions": {"denied": true}, "inverted": true, "reason": "Guests may not play denied videos"})));
}

#[test]
fn the_evaluator_can_say_no() {
    // The test evaluator itself: a missing field is null, $nin excludes, the last rule wins.
    let rules = json!([
        {"action": "play", "subject": "Video", "conditions": {"channelPackId": {"$in": [null]}}},
        {"action": "play", "subject": "Video", "conditions": {"site": "x"}, "inverted": true},
    ]);
    assert!(casl_can(&rules, "play", "Video", Some(&json!({}))));
    assert!(!casl_can(&rules, "play", "Video", Some(&json!({"channelPackId": "p"}))));
    assert!(!casl_can(&rules, "play", "Video", Some(&json!({"site": "x"}))));
    assert!(casl_can(&rules, "play", "Video", None));
    assert!(!casl_can(&rules, "see", "Video", None));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_browser_and_the_server_agree_for_any_user_and_resource(
        u in any_user(), f in any_features(), rs in proptest::collection::vec(any_resource(), 1..6),
    ) {
        let rules = serde_json::to_value(abilities(&u, &f)).unwrap();
        let ability = Ability::new(&u, &f);
        for (action, subject) in VOCABULARY {
            prop_assert_eq!(casl_can(&rules, action, subject, None), can(&u, &f, action, subject, None));
            prop_assert_eq!(ability.can(action, subject, None), can(&u, &f, action, subject, None));
            for r in &rs {
                prop_assert_eq!(
                    casl_can(&rules, action, subject, Some(&resource_json(r))),
                    can(&u, &f, action, subject, Some(r)),
                    "{} {} {:?}", action, subject, r
                );
            }
        }
    }

    #[test]
    fn every_rule_names_the_vocabulary_and_each_field_once(u in any_user(), f in any_features()) {
        for rule in abilities(&u, &f) {
            prop_assert!(VOCABULARY.contains(&(rule.action, rule.subject)), "{} {}", rule.action, rule.subject);
            if let Some(c) = &rule.conditions {
                let mut fields: Vec<&str> = c.0.iter().map(|c| c.field()).collect();
                let n = fields.len();
                fields.sort();
                fields.dedup();
                prop_assert_eq!(fields.len(), n, "a field tested twice would be lost in the JSON object");
            }
            prop_assert_eq!(rule.inverted, rule.reason.is_some(), "every inverted rule says why");
        }
    }
}
