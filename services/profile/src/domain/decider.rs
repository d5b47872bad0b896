//! The user decider: what each command decides and how each event changes the user.

use proto_events::profile::{CredentialsChangeReason, HealthWarningState, ProfileEvent, SessionsRevokedReason};
use uuid::Uuid;

use super::{Command, DomainError, GroupKey, User};
use crate::validation::{self as v};

pub fn decide(user: &User, command: Command) -> Result<Vec<ProfileEvent>, DomainError> {
    if let Command::Register { user_id, email, username, site, tandem_parent, vip_invited, at } = command {
        if user.registered {
            return Err(DomainError::AccountExists);
        }
        if !v::is_valid_email(&email) {
            return Err(DomainError::InvalidEmail);
        }
        if username.as_deref().is_some_and(|u| !v::is_valid_username(u)) {
            return Err(DomainError::InvalidUsername);
        }
        let mut events = vec![
            ProfileEvent::UserRegistered {
                user_id,
                email,
                username,
                site: site.clone(),
                tandem_parent_user_id: tandem_parent,
                registered_at: at,
            },
            ProfileEvent::CredentialsChanged { user_id, reason: CredentialsChangeReason::Registration, changed_at: at },
        ];
        if vip_invited {
            events.push(ProfileEvent::VipUserInvited { user_id, site, invited_at: at });
        }
        return Ok(events);
    }
    if !user.registered {
        return Err(DomainError::UnknownUser);
    }
    let user_id = user.user_id;
    let events = match command {
        Command::Register { .. } => unreachable!("handled above"),
        Command::ChooseUsername { username, at } => {
            if !v::is_valid_username(&username) {
                return Err(DomainError::InvalidUsername);
            }
            match &user.username {
                Some(chosen) if *chosen == username => vec![],
                Some(_) => return Err(DomainError::UsernameAlreadyChosen),
                None => vec![ProfileEvent::UsernameChosen { user_id, username, chosen_at: at }],
            }
        }
        Command::SetDisplayName { display_name, at } => {
            let display_name = v::normalize_display_name(&display_name).ok_or(DomainError::InvalidDisplayName)?;
            if user.display_name.as_deref() == Some(&display_name) {
                vec![]
            } else {
                vec![ProfileEvent::DisplayNameSet { user_id, display_name, set_at: at }]
            }
        }
        Command::SetEmailConsent { site, email_consent, consent_html_snippet, at } => {
            // Every answer is kept, with the text shown: it is the evidence of consent.
            vec![ProfileEvent::EmailConsentSet { user_id, site, email_consent, consent_html_snippet, set_at: at }]
        }
        Command::GiveTermsConsent { site, at } => {
            if user.terms_consent {
                vec![]
            } else {
                vec![ProfileEvent::TermsConsentGiven { user_id, site, given_at: at }]
            }
        }
        Command::GiveCamsConsent { site, at } => {
            if user.cams_consent {
                vec![]
            } else {
                vec![ProfileEvent::CamsConsentGiven { user_id, site, given_at: at }]
            }
        }
        Command::SetAutoplay { autoplay_enabled, at } => {
            if user.autoplay_enabled == autoplay_enabled {
                vec![]
            } else {
                vec![ProfileEvent::AutoplaySet { user_id, autoplay_enabled, set_at: at }]
            }
        }
        Command::SetRelationship { relationship_status, relationship_role, may_edit, at } => {
            if !may_edit {
                return Err(DomainError::RelationshipNotEditable);
            }
            if !v::is_valid_relationship_value(&relationship_status)
                || !v::is_valid_relationship_value(&relationship_role)
            {
                return Err(DomainError::InvalidRelationship);
            }
            let (status, role) = (relationship_status.trim().to_owned(), relationship_role.trim().to_owned());
            if user.relationship.as_ref() == Some(&(status.clone(), role.clone())) {
                vec![]
            } else {
                vec![ProfileEvent::RelationshipSet {
                    user_id,
                    relationship_status: status,
                    relationship_role: role,
                    set_at: at,
                }]
            }
        }
        Command::AcknowledgeGemsIntro { when } => {
            if user.gems_intro_acknowledged_at.is_some() {
                vec![]
            } else {
                vec![ProfileEvent::GemsIntroAcknowledged { user_id, acknowledged_at: when }]
            }
        }
        Command::ViewPromotionalTeaser { at } => {
            if user.teaser_viewed {
                vec![]
            } else {
                vec![ProfileEvent::PromotionalTeaserViewed { user_id, viewed_at: at }]
            }
        }
        Command::AcknowledgeHealthWarning { state, at } => {
            let done = match state {
                HealthWarningState::Texas => user.texas_acknowledged,
                HealthWarningState::Alabama => user.alabama_acknowledged,
            };
            if done {
                vec![]
            } else {
                vec![ProfileEvent::HealthWarningAcknowledged { user_id, state_code: state, acknowledged_at: at }]
            }
        }
        Command::GrantGroup { group, at } => {
            if user.in_group(group) {
                vec![]
            } else {
                vec![ProfileEvent::GroupGranted { user_id, group, granted_at: at }]
            }
        }
        Command::RevokeGroup { group, at } => {
            if user.in_group(group) {
                vec![ProfileEvent::GroupRevoked { user_id, group, revoked_at: at }]
            } else {
                vec![]
            }
        }
        Command::SetSpecialAttributes { attributes, at } => {
            if user.special_attributes == attributes {
                vec![]
            } else {
                vec![ProfileEvent::SpecialAttributesSet { user_id, attributes, set_at: at }]
            }
        }
        Command::ChangePassword {
            old_password_correct,
            new_password_valid,
            confirmation_matches,
            same_as_old,
            session_id,
            at,
        } => {
            if !old_password_correct {
                return Err(DomainError::OldPasswordIncorrect);
            }
            if !confirmation_matches {
                return Err(DomainError::ConfirmationMismatch);
            }
            if !new_password_valid || same_as_old {
                return Err(DomainError::NewPasswordNotSecure);
            }
            vec![
                ProfileEvent::CredentialsChanged {
                    user_id,
                    reason: CredentialsChangeReason::PasswordChange,
                    changed_at: at,
                },
                ProfileEvent::SessionsRevoked {
                    user_id,
                    reason: SessionsRevokedReason::PasswordChanged,
                    kept_session_id: session_id,
                    revoked_at: at,
                    session_ids: ended_sessions(user, session_id),
                },
            ]
        }
        Command::RecordTandemChild { child_user_id, parent_active, at } => {
            if user.is_tandem_child() {
                return Err(DomainError::TandemChildCannotCreate);
            }
            if user.tandem_child.is_some() {
                return Err(DomainError::TandemChildExists);
            }
            if !parent_active {
                return Err(DomainError::TandemParentInactive);
            }
            vec![ProfileEvent::TandemChildAccountCreated { parent_user_id: user_id, child_user_id, created_at: at }]
        }
        Command::ConvertVip { new_email, password_valid, session_id, at } => {
            if !user.vip_invited || user.vip_converted {
                return Err(DomainError::NotAVipUser);
            }
            if !v::is_valid_vip_email(&new_email) {
                return Err(DomainError::VipInvalidEmail);
            }
            if !password_valid {
                return Err(DomainError::VipInvalidPassword);
            }
            vec![
                ProfileEvent::VipUserConverted { user_id, new_email, converted_at: at },
                ProfileEvent::CredentialsChanged {
                    user_id,
                    reason: CredentialsChangeReason::VipUserConversion,
                    changed_at: at,
                },
                ProfileEvent::SessionsRevoked {
                    user_id,
                    reason: SessionsRevokedReason::VipUserConverted,
                    kept_session_id: session_id,
                    revoked_at: at,
                    session_ids: ended_sessions(user, session_id),
                },
            ]
        }
        Command::StartSession { session_id, audience, tenant, method, at } => {
            vec![ProfileEvent::SignedIn { user_id, session_id, audience, tenant, method, signed_in_at: at }]
        }
        Command::EndSession { session_id, reason, at } => {
            if user.open_sessions.contains(&session_id) {
                vec![ProfileEvent::SignedOut { user_id, session_id, reason, signed_out_at: at }]
            } else {
                vec![]
            }
        }
        Command::RevokeSessions { reason, kept_session_id, at } => {
            let session_ids = ended_sessions(user, kept_session_id);
            vec![ProfileEvent::SessionsRevoked { user_id, reason, kept_session_id, revoked_at: at, session_ids }]
        }
    };
    Ok(events)
}

/// The open sessions a revocation keeping `kept` ends.
fn ended_sessions(user: &User, kept: Option<Uuid>) -> Vec<Uuid> {
    user.open_sessions.iter().copied().filter(|s| Some(*s) != kept).collect()
}

pub fn evolve(mut user: User, event: &ProfileEvent) -> User {
    match event {
        ProfileEvent::UserRegistered { user_id, email, username, site, tandem_parent_user_id, .. } => {
            user = User {
                registered: true,
                user_id: *user_id,
                email: email.clone(),
                username: username.clone(),
                site: site.clone(),
                tandem_parent: *tandem_parent_user_id,
                autoplay_enabled: true,
                ..User::default()
            };
        }
        ProfileEvent::CredentialsChanged { .. } => {}
        ProfileEvent::SessionsRevoked { kept_session_id, .. } => {
            user.open_sessions.retain(|s| Some(*s) == *kept_session_id);
        }
        ProfileEvent::UsernameChosen { username, .. } => user.username = Some(username.clone()),
        ProfileEvent::DisplayNameSet { display_name, .. } => user.display_name = Some(display_name.clone()),
        ProfileEvent::EmailConsentSet { email_consent, .. } => user.email_consent = Some(*email_consent),
        ProfileEvent::TermsConsentGiven { .. } => user.terms_consent = true,
        ProfileEvent::CamsConsentGiven { .. } => user.cams_consent = true,
        ProfileEvent::AutoplaySet { autoplay_enabled, .. } => user.autoplay_enabled = *autoplay_enabled,
        ProfileEvent::RelationshipSet { relationship_status, relationship_role, .. } => {
            user.relationship = Some((relationship_status.clone(), relationship_role.clone()));
        }
        ProfileEvent::GemsIntroAcknowledged { acknowledged_at, .. } => {
            user.gems_intro_acknowledged_at = Some(*acknowledged_at)
        }
        ProfileEvent::PromotionalTeaserViewed { .. } => user.teaser_viewed = true,
        ProfileEvent::HealthWarningAcknowledged { state_code, .. } => match state_code {
            HealthWarningState::Texas => user.texas_acknowledged = true,
            HealthWarningState::Alabama => user.alabama_acknowledged = true,
        },
        ProfileEvent::GroupGranted { group, .. } => {
            user.groups.insert(GroupKey::of(*group));
        }
        ProfileEvent::GroupRevoked { group, .. } => {
            user.groups.remove(&GroupKey::of(*group));
        }
        ProfileEvent::SpecialAttributesSet { attributes, .. } => user.special_attributes = attributes.clone(),
        ProfileEvent::TandemChildAccountCreated { child_user_id, .. } => user.tandem_child = Some(*child_user_id),
        ProfileEvent::VipUserInvited { .. } => user.vip_invited = true,
        ProfileEvent::VipUserConverted { new_email, .. } => {
            user.vip_converted = true;
            user.email = new_email.clone();
        }
        ProfileEvent::SignedIn { session_id, .. } => {
            user.open_sessions.insert(*session_id);
        }
        ProfileEvent::SignedOut { session_id, .. } => {
            user.open_sessions.remove(session_id);
        }
    }
    user
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::*;
    use proptest::prelude::*;

    fn now() -> DateTime<Utc> {
        Utc::now()
    }

    fn registered() -> User {
        let command = Command::Register {
            user_id: Uuid::now_v7(),
            email: "jane@example.com".into(),
            username: Some("jane".into()),
            site: "vixen".into(),
            tandem_parent: None,
            vip_invited: false,
            at: now(),
        };
        run(User::default(), command).unwrap()
    }

    fn run(user: User, command: Command) -> Result<User, DomainError> {
        let events = decide(&user, command)?;
        Ok(events.iter().fold(user, evolve))
    }

    #[test]
    fn a_registration_records_the_account_and_its_credentials() {
        let events = decide(
            &User::default(),
            Command::Register {
                user_id: Uuid::now_v7(),
                email: "jane@example.com".into(),
                username: Some("jane".into()),
                site: "vixen".into(),
                tandem_parent: None,
                vip_invited: true,
                at: now(),
            },
        )
        .unwrap();
        let types: Vec<_> = events.iter().map(|e| proto_events::encode(e).event_type).collect();
        assert_eq!(types, ["UserRegistered", "CredentialsChanged", "VipUserInvited"]);
    }

    #[test]
    fn it_refuses_a_second_registration_and_commands_for_nobody() {
        let user = registered();
        let again = Command::Register {
            user_id: user.user_id,
            email: "x@example.com".into(),
            username: None,
            site: "vixen".into(),
            tandem_parent: None,
            vip_invited: false,
            at: now(),
        };
        assert_eq!(decide(&user, again), Err(DomainError::AccountExists));
        assert_eq!(
            decide(&User::default(), Command::SetAutoplay { autoplay_enabled: false, at: now() }),
            Err(DomainError::UnknownUser)
        );
    }

    #[test]
    fn a_username_is_permanent_once_chosen() {
        let user = registered();
        assert_eq!(
            decide(&user, Command::ChooseUsername { username: "other".into(), at: now() }),
            Err(DomainError::UsernameAlreadyChosen)
        );
        assert_eq!(decide(&user, Command::ChooseUsername { username: "jane".into(), at: now() }), Ok(vec![]));
        let mut fresh = user.clone();
        fresh.username = None;
        assert_eq!(
            decide(&fresh, Command::ChooseUsername { username: "Bad!".into(), at: now() }),
            Err(DomainError::InvalidUsername)
        );
        let chosen = run(fresh, Command::ChooseUsername { username: "jane2".into(), at: now() }).unwrap();
        assert_eq!(chosen.username.as_deref(), Some("jane2"));
    }

    #[test]
    fn setting_the_same_value_again_records_nothing() {
        let user = registered();
        assert_eq!(decide(&user, Command::SetAutoplay { autoplay_enabled: true, at: now() }), Ok(vec![]));
        let off = run(user, Command::SetAutoplay { autoplay_enabled: false, at: now() }).unwrap();
        assert!(!off.autoplay_enabled);
        let acked = run(off, Command::AcknowledgeGemsIntro { when: now() }).unwrap();
        assert_eq!(decide(&acked, Command::AcknowledgeGemsIntro { when: now() }), Ok(vec![]));
    }

    #[test]
    fn the_relationship_is_editable_only_by_who_may_edit_it() {
        let user = registered();
        let set = |may_edit| Command::SetRelationship {
            relationship_status: "married".into(),
            relationship_role: "wife".into(),
            may_edit,
            at: now(),
        };
        assert_eq!(decide(&user, set(false)), Err(DomainError::RelationshipNotEditable));
        let done = run(user, set(true)).unwrap();
        assert_eq!(done.relationship, Some(("married".into(), "wife".into())));
        let empty = Command::SetRelationship {
            relationship_status: " ".into(),
            relationship_role: "wife".into(),
            may_edit: true,
            at: now(),
        };
        assert_eq!(decide(&done, empty), Err(DomainError::InvalidRelationship));
    }

    #[test]
    fn a_password_change_checks_old_then_confirmation_then_strength_and_ends_other_sessions() {
        let user = registered();
        let change = |old, valid, matches, same| Command::ChangePassword {
            old_password_correct: old,
            new_password_valid: valid,
            confirmation_matches: matches,
            same_as_old: same,
            session_id: Some(Uuid::nil()),
            at: now(),
        };
        assert_eq!(decide(&user, change(false, false, false, false)), Err(DomainError::OldPasswordIncorrect));
        assert_eq!(decide(&user, change(true, false, false, false)), Err(DomainError::ConfirmationMismatch));
        assert_eq!(decide(&user, change(true, false, true, false)), Err(DomainError::NewPasswordNotSecure));
        assert_eq!(decide(&user, change(true, true, true, true)), Err(DomainError::NewPasswordNotSecure));
        let events = decide(&user, change(true, true, true, false)).unwrap();
        assert!(matches!(
            events[1],
            ProfileEvent::SessionsRevoked { kept_session_id: Some(k), reason: SessionsRevokedReason::PasswordChanged, .. }
                if k == Uuid::nil()
        ));
    }

    #[test]
    fn a_tandem_child_cannot_create_one_and_a_parent_creates_one_only() {
        let parent = registered();
        let child_id = Uuid::now_v7();
        assert_eq!(
            decide(&parent, Command::RecordTandemChild { child_user_id: child_id, parent_active: false, at: now() }),
            Err(DomainError::TandemParentInactive)
        );
        let with_child =
            run(parent, Command::RecordTandemChild { child_user_id: child_id, parent_active: true, at: now() })
                .unwrap();
        assert_eq!(
            decide(&with_child, Command::RecordTandemChild { child_user_id: child_id, parent_active: true, at: now() }),
            Err(DomainError::TandemChildExists)
        );
        let mut child = registered();
        child.tandem_parent = Some(with_child.user_id);
        assert_eq!(
            decide(&child, Command::RecordTandemChild { child_user_id: child_id, parent_active: true, at: now() }),
            Err(DomainError::TandemChildCannotCreate)
        );
    }

    #[test]
    fn a_vip_converts_once_with_a_real_email() {
        let user = registered();
        let convert = |email: &str, ok| Command::ConvertVip {
            new_email: email.into(),
            password_valid: ok,
            session_id: None,
            at: now(),
        };
        assert_eq!(decide(&user, convert("me@example.com", true)), Err(DomainError::NotAVipUser));
        let vip = User { vip_invited: true, ..user };
        assert_eq!(decide(&vip, convert("me@vip.paysite.test", true)), Err(DomainError::VipInvalidEmail));
        assert_eq!(decide(&vip, convert("me@example.com", false)), Err(DomainError::VipInvalidPassword));
        let converted = run(vip, convert("me@example.com", true)).unwrap();
        assert_eq!(converted.email, "me@example.com");
        assert_eq!(decide(&converted, convert("me2@example.com", true)), Err(DomainError::NotAVipUser));
    }

    #[test]
    fn a_revocation_keeps_only_the_named_session() {
        let user = registered();
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        let start = |s| Command::StartSession {
            session_id: s,
            audience: "vixen.localhost:8080".into(),
            tenant: "vixen".into(),
            method: SignInMethod::Password,
            at: now(),
        };
        let user = run(run(user, start(a)).unwrap(), start(b)).unwrap();
        let revoke = Command::RevokeSessions {
            reason: SessionsRevokedReason::PasswordChanged,
            kept_session_id: Some(a),
            at: now(),
        };
        let events = decide(&user, revoke.clone()).unwrap();
        assert!(
            matches!(&events[..], [ProfileEvent::SessionsRevoked { session_ids, .. }] if *session_ids == vec![b]),
            "the event names the sessions it ends: {events:?}"
        );
        let user = run(user, revoke).unwrap();
        assert_eq!(user.open_sessions.iter().copied().collect::<Vec<_>>(), vec![a]);
        assert_eq!(
            decide(&user, Command::EndSession { session_id: b, reason: SignOutReason::Logout, at: now() }),
            Ok(vec![])
        );
    }

    proptest! {
        #[test]
        fn groups_follow_the_last_grant_or_revoke(ops in proptest::collection::vec((0usize..4, any::<bool>()), 0..20)) {
            let mut user = registered();
            let mut model = BTreeSet::new();
            for (i, grant) in ops {
                let group = Group::ALL[i];
                let command = if grant { Command::GrantGroup { group, at: now() } } else { Command::RevokeGroup { group, at: now() } };
                user = run(user, command).unwrap();
                if grant { model.insert(i); } else { model.remove(&i); }
            }
            let got: BTreeSet<usize> = user.groups.iter().map(|g| g.0 as usize).collect();
            prop_assert_eq!(got, model);
        }
    }
}
