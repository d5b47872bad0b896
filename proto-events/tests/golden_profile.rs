mod support;

use chrono::{TimeZone, Utc};
use proto_events::profile::{
    CredentialsChangeReason, Group, HealthWarningState, ProfileEvent as E, SessionsRevokedReason, SignInMethod,
    SignOutReason, SpecialAttributes,
};
use uuid::Uuid;

fn id(n: u32) -> Uuid {
    Uuid::parse_str(&format!("0190f5a2-0000-7000-8000-{n:012x}")).unwrap()
}

fn samples() -> Vec<E> {
    let user_id = id(0xa1);
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    vec![
        E::UserRegistered {
            user_id,
            email: "jane.doe@example.com".into(),
            username: Some("janedoe42".into()),
            site: "tushy".into(),
            tandem_parent_user_id: Some(id(0xa0)),
            registered_at: at,
        },
        E::CredentialsChanged { user_id, reason: CredentialsChangeReason::PasswordChange, changed_at: at },
        E::SessionsRevoked {
            user_id,
            reason: SessionsRevokedReason::PasswordChanged,
            kept_session_id: Some(id(0x5e55)),
            revoked_at: at,
            session_ids: vec![id(0x5e56), id(0x5e57)],
        },
        E::UsernameChosen { user_id, username: "janedoe42".into(), chosen_at: at },
        E::DisplayNameSet { user_id, display_name: "Jane D.".into(), set_at: at },
        E::EmailConsentSet {
            user_id,
            site: "tushy".into(),
            email_consent: true,
            consent_html_snippet: "<p>I agree to receive news and offers by e-mail.</p>".into(),
            set_at: at,
        },
        E::TermsConsentGiven { user_id, site: "tushy".into(), given_at: at },
        E::CamsConsentGiven { user_id, site: "tushy".into(), given_at: at },
        E::AutoplaySet { user_id, autoplay_enabled: false, set_at: at },
        E::RelationshipSet {
            user_id,
            relationship_status: "married".into(),
            relationship_role: "wife".into(),
            set_at: at,
        },
        E::GemsIntroAcknowledged { user_id, acknowledged_at: at },
        E::PromotionalTeaserViewed { user_id, viewed_at: at },
        E::HealthWarningAcknowledged { user_id, state_code: HealthWarningState::Texas, acknowledged_at: at },
        E::GroupGranted { user_id, group: Group::VideoPreview, granted_at: at },
        E::GroupRevoked { user_id, group: Group::CommentEditor, revoked_at: at },
        E::SpecialAttributesSet {
            user_id,
            attributes: SpecialAttributes {
                is_pornstar_user: false,
                model_id: Some(id(0x9e)),
                is_king_user: false,
                is_director_user: true,
                is_vip_user: false,
                is_official_user: true,
            },
            set_at: at,
        },
        E::TandemChildAccountCreated { parent_user_id: user_id, child_user_id: id(0xc1), created_at: at },
        E::VipUserInvited { user_id, site: "vixen".into(), invited_at: at },
        E::VipUserConverted { user_id, new_email: "jane.doe@example.com".into(), converted_at: at },
        E::SignedIn {
            user_id,
            session_id: id(0x5e55),
            audience: "tushy.localhost".into(),
            tenant: "tushy".into(),
            method: SignInMethod::Password,
            signed_in_at: at,
        },
        E::SignedOut { user_id, session_id: id(0x5e55), reason: SignOutReason::RefreshTokenReused, signed_out_at: at },
    ]
}

#[test]
fn every_profile_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn every_profile_event_names_its_user() {
    for sample in samples() {
        assert_eq!(sample.user_id(), id(0xa1), "{sample:?}");
    }
}

#[test]
fn groups_are_spelt_as_the_spec_spells_them() {
    for group in [Group::Admin, Group::CommentEditor, Group::VideoPreview, Group::GuestUser] {
        assert_eq!(serde_json::to_value(group).unwrap(), group.as_str());
    }
}

#[test]
fn a_profile_stream_is_named_after_its_user() {
    assert_eq!(proto_events::profile::stream_id(id(0xa1)), "user-0190f5a2-0000-7000-8000-0000000000a1");
}
