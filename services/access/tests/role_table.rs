//! product.md, "Roles and abilities", role × ability. Columns are the users of `common::user`
//! (the role table's rows), rows are an ability with an optional resource of
//! `common::resource`. Features: channels and the upgrade overlay on, every preview-gated flag
//! off (so the preview role shows). Y = may, . = may not.

mod common;

use access::can;
use common::{resource, user, COLUMNS};
use tenants::Features;

const TABLE: &str = "
ability                              | anon flt fltX trial exp ppG pp ppP sub subN subC adm ced child prev ppT
play Trailer tO                      |  Y    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
play Trailer tD                      |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
play Video vS                        |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
play Video vO                        |  .    .   .    .     .   .   .  .   .   Y    .    .   .   .     .    .
play Video vU                        |  .    .   .    Y     Y   .   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
play Video vF                        |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
play Video cL                        |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     .    .
play Video cU                        |  .    .   .    .     .   .   .  .   Y   Y    Y    .   Y   .     .    .
play Video                           |  .    Y   .    Y     Y   .   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
comment Video vS                     |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
comment Video vU                     |  .    .   .    Y     Y   .   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
comment Video vF                     |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
unlock Video vF                      |  .    Y   .    .     .   .   .  .   .   .    .    .   .   .     .    .
unlock Video vS                      |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     .    .
download Video vS                    |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
download Video vU                    |  .    .   .    .     .   .   .  .   .   Y    .    .   .   .     .    .
see PictureSet vS                    |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
see PictureSet vU                    |  .    .   .    Y     .   .   .  Y   .   Y    .    .   .   .     .    .
see PictureSet vF                    |  .    Y   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
unlock ChannelVideo cL               |  .    .   .    Y     Y   .   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
unlock ChannelVideo cU               |  .    .   .    Y     Y   .   Y  Y   .   .    .    Y   .   .     Y    Y
unlock ChannelVideo vS               |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     .    .
unlock ChannelPack pk2               |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
unlock ChannelPack pk1               |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     .    .
unlock Channel                       |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
access Channel                       |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
see Channels                         |  Y    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   .     Y    Y
see InternalChannels                 |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     Y    .
see ChannelTrailers                  |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     Y    .
see InternalChannelTrailers          |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     Y    .
see ExpertReviewModal                |  .    .   .    .     .   .   .  .   .   .    .    .   .   .     Y    .
see PurchaseMembershipModal          |  .    Y   Y    Y     Y   Y   Y  Y   .   .    .    Y   .   .     Y    Y
see UpgradeBar                       |  .    Y   Y    Y     Y   .   Y  Y   .   .    Y    Y   .   .     Y    Y
see UpgradeOverlay                   |  .    Y   Y    Y     Y   .   Y  Y   .   .    .    .   .   .     Y    Y
see UpgradeOverlay vU                |  .    Y   Y    .     Y   .   Y  Y   .   .    .    .   .   .     Y    Y
see TrialDeals                       |  .    Y   Y    Y     .   .   .  .   .   .    .    .   .   .     .    .
see ExpiredDeals                     |  .    .   .    .     Y   .   .  .   .   .    .    .   .   .     .    .
see PornPortalBar                    |  .    .   .    .     Y   .   .  .   .   .    .    .   .   .     .    .
see SpecialOffers                    |  .    .   .    .     .   Y   Y  Y   .   .    .    Y   .   .     Y    Y
see FreeLimitedTrialVideos           |  .    Y   Y    .     .   .   .  .   Y   Y    Y    .   Y   Y     .    .
see LockedVideo                      |  .    Y   .    .     .   .   .  .   .   .    .    .   .   .     .    .
see LockedChannel                    |  .    Y   .    .     Y   .   Y  Y   .   .    .    Y   .   .     Y    Y
see HideMonthInterstitialButton      |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
see UnlockChannelModal               |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
see GemAnimation                     |  .    .   .    .     .   .   .  .   Y   .    Y    .   Y   Y     .    .
see ReactivateCancelledRebillModal   |  .    .   .    .     .   .   .  .   .   .    Y    .   .   .     .    .
see RecommendationShelf              |  .    .   .    .     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    .
see RelationshipSection              |  .    .   .    .     .   .   .  .   .   .    .    Y   .   Y     .    .
edit RelationshipSection             |  .    .   .    .     .   .   .  .   .   .    .    Y   .   .     .    .
loadMore Comment                     |  Y    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
sort Comment                         |  Y    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
focus Comment                        |  Y    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
add Comment                          |  .    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
reply Comment                        |  .    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
vote Comment                         |  .    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
setDraft Comment                     |  .    Y   Y    Y     Y   Y   Y  Y   Y   Y    Y    Y   Y   Y     Y    Y
remove Comment                       |  .    .   .    .     .   .   .  .   .   .    .    Y   Y   .     .    .
pin Comment                          |  .    .   .    .     .   .   .  .   .   .    .    Y   Y   .     .    .
unpin Comment                        |  .    .   .    .     .   .   .  .   .   .    .    Y   Y   .     .    .
";

fn features() -> Features {
    Features { channels: true, upgrade_overlay: true, ..Features::default() }
}

#[test]
fn every_role_has_exactly_the_abilities_of_the_table() {
    let mut lines = TABLE.trim().lines();
    let header: Vec<&str> = lines.next().unwrap().split('|').nth(1).unwrap().split_whitespace().collect();
    assert_eq!(header, COLUMNS, "the table's columns are the fixtures' users");
    let features = features();
    let mut failures = Vec::new();
    let mut cells = 0;
    for line in lines {
        let (ability, expected) = line.split_once('|').unwrap();
        let words: Vec<&str> = ability.split_whitespace().collect();
        let (action, subject) = (words[0], words[1]);
        let res = words.get(2).map(|r| resource(r));
        let expected: Vec<&str> = expected.split_whitespace().collect();
        assert_eq!(expected.len(), COLUMNS.len(), "row {ability}");
        for (column, want) in COLUMNS.iter().zip(expected) {
            let got = can(&user(column), &features, action, subject, res.as_ref());
            cells += 1;
            if got != (want == "Y") {
                failures.push(format!("{column:>5} {}: expected {want}", ability.trim()));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cells} cells differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_table_names_every_ability_of_the_vocabulary() {
    for (action, subject) in common::VOCABULARY {
        let named = TABLE.lines().any(|l| l.split_whitespace().take(2).eq([*action, *subject]));
        assert!(named, "{action} {subject} is missing from the table");
    }
}

#[test]
fn flags_on_show_channel_trailers_internal_channels_and_expert_review_to_everyone_signed_in() {
    let on = Features {
        internal_channels: true,
        channel_trailers: true,
        internal_channel_trailers: true,
        expert_review: true,
        ..Features::default()
    };
    for column in COLUMNS {
        let u = user(column);
        for subject in ["InternalChannels", "ChannelTrailers", "InternalChannelTrailers"] {
            assert!(can(&u, &on, "see", subject, None), "{column} sees {subject}");
        }
        // The free limited trial sees the expert review only while the trial is active.
        let expert = !matches!(column, "anon" | "fltX");
        assert_eq!(can(&u, &on, "see", "ExpertReviewModal", None), expert, "{column}");
    }
}

#[test]
fn without_the_channels_feature_nobody_sees_channels() {
    let off = Features { channels: false, ..Features::default() };
    for column in COLUMNS {
        assert!(!can(&user(column), &off, "see", "Channels", None), "{column}");
    }
}

#[test]
fn without_the_upgrade_overlay_feature_nobody_sees_the_overlay() {
    let off = Features { upgrade_overlay: false, ..Features::default() };
    for column in COLUMNS {
        assert!(!can(&user(column), &off, "see", "UpgradeOverlay", None), "{column}");
    }
}

/// The free limited trial's full videos are taken with UnlockVideo (product.md, "Unlocks"
/// product.md, "Unlocks"): while the trial runs, what it unlocked plays and takes comments like its own content;
/// once it ended, nothing does.
#[test]
fn the_free_limited_trials_unlocked_videos_play_while_it_runs() {
    let features = Features::default();
    let unlocked = |column: &str| {
        let mut u = user(column);
        u.profile.as_mut().unwrap().subscription.unlocked_video_ids = vec!["taken".to_owned()];
        u
    };
    let video = access::ResourceFacts { id: Some("taken".into()), site: Some("other".into()), ..Default::default() };
    for action in ["play", "comment"] {
        assert!(can(&unlocked("flt"), &features, action, "Video", Some(&video)), "{action}");
        assert!(!can(&unlocked("fltX"), &features, action, "Video", Some(&video)), "{action}");
        assert!(!can(&user("flt"), &features, action, "Video", Some(&video)), "{action}: not unlocked");
    }
}
