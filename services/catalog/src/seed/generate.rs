//! The demo catalog's content, generated from a seeded generator: the same entities, titles and
//! dates on every run.

use super::*;

/// Everything the demo catalog holds, in publishing order (referenced entities first).
pub struct Catalog {
    pub content: Vec<CatalogEvent>,
    /// (rater, video, rating)
    pub ratings: Vec<(Uuid, Uuid, u8)>,
}

/// Which of the brand videos are the free limited trial's (3 full videos, product.md, "Unlocks"
/// product.md, "Unlocks"): each brand's three oldest, and four of its newest (its 1st, 2nd, 5th and 9th newest),
/// so that a brand's first page of the default listing (newest first) carries some of them and
/// each brand has more than the trial's three, the combined brand's own among them (its lists
/// carry every brand's videos, its trial takes its own: docs/decisions/).
pub fn is_free_trial_pick(i: usize, brand_videos: usize) -> bool {
    if i >= brand_videos {
        return false;
    }
    let newest_rank = (brand_videos - 1 - i) / BRANDS.len();
    i < BRANDS.len() * 3 || matches!(newest_rank, 0 | 1 | 4 | 8)
}

pub fn generate(scale: Scale) -> Catalog {
    let mut rng = Rng::new(7);
    let at = epoch();
    let mut content = Vec::new();

    let categories: Vec<(String, String)> = CATEGORIES.iter().map(|c| (slugify(c), (*c).to_owned())).collect();
    for (i, (slug, name)) in categories.iter().enumerate() {
        content.push(CatalogEvent::CategoryDefined {
            category_id: seed_id("category", i as u64),
            slug: slug.clone(),
            name: name.clone(),
            sites: BRANDS.iter().map(|b| (*b).to_owned()).chain([CHANNELS_SITE.to_owned()]).collect(),
            defined_at: at,
        });
    }

    // Performers: names unique by a numeric suffix when a combination repeats.
    let mut performers: Vec<(Uuid, String, Vec<String>)> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for i in 0..scale.performers {
        let male = i % 4 == 3;
        let first = if male { FIRST_NAMES[30 + rng.below(10)] } else { FIRST_NAMES[rng.below(30)] };
        let name = format!("{first} {}", rng.pick(&LAST_NAMES));
        let n = seen.entry(name.clone()).or_default();
        *n += 1;
        let slug = if *n == 1 { slugify(&name) } else { format!("{}-{}", slugify(&name), n) };
        let home = BRANDS[i % BRANDS.len()];
        let mut sites = vec![home.to_owned(), "vixenplus".to_owned()];
        if i % 3 == 0 {
            sites.push(BRANDS[(i / 3) % 9].to_owned());
        }
        sites.sort();
        sites.dedup();
        let id = seed_id("performer", i as u64);
        content.push(CatalogEvent::PerformerPublished {
            performer_id: id,
            slug,
            name,
            sex: if male { "M".into() } else { "F".into() },
            sites: sites.clone(),
            published_at: at,
        });
        performers.push((id, if male { "M".into() } else { "F".into() }, sites));
    }
    let by_site = |site: &str| -> (Vec<Uuid>, Vec<Uuid>) {
        let on: Vec<&(Uuid, String, Vec<String>)> =
            performers.iter().filter(|p| p.2.iter().any(|s| s == site)).collect();
        let f = on.iter().filter(|p| p.1 == "F").map(|p| p.0).collect();
        let m = on.iter().filter(|p| p.1 == "M").map(|p| p.0).collect();
        (f, m)
    };
    let site_cast: HashMap<&str, (Vec<Uuid>, Vec<Uuid>)> = BRANDS.iter().map(|b| (*b, by_site(b))).collect();
    let all_f: Vec<Uuid> = performers.iter().filter(|p| p.1 == "F").map(|p| p.0).collect();
    let all_m: Vec<Uuid> = performers.iter().filter(|p| p.1 == "M").map(|p| p.0).collect();

    let channels: Vec<(Uuid, String, ChannelKind, Option<ChannelCategory>)> = CHANNELS
        .iter()
        .enumerate()
        .map(|(i, (name, kind, category))| (seed_id("channel", i as u64), slugify(name), *kind, *category))
        .collect();
    for (i, (id, slug, kind, category)) in channels.iter().enumerate() {
        // Third-party channels on the brands with channels; a few brands carry none.
        let sites: Vec<String> =
            BRANDS.iter().filter(|b| !WITHOUT_CHANNELS.contains(b)).map(|b| (*b).to_owned()).collect();
        content.push(CatalogEvent::ChannelPublished {
            channel_id: *id,
            slug: slug.clone(),
            name: CHANNELS[i].0.to_owned(),
            kind: *kind,
            category: *category,
            sites,
            published_at: at,
        });
    }

    let mut titles: HashMap<(String, String), usize> = HashMap::new();
    let mut videos: Vec<Video> = Vec::new();
    let total = scale.brand_videos + scale.channel_videos;
    for i in 0..total {
        let is_channel = i >= scale.brand_videos;
        let site = if is_channel { CHANNELS_SITE.to_owned() } else { BRANDS[i % BRANDS.len()].to_owned() };
        let title = if rng.below(4) == 0 {
            format!(
                "{} {} {}",
                rng.pick(&ADJECTIVES),
                rng.pick(&NOUNS),
                ["Part Two", "Revisited", "Again", "Diaries"][rng.below(4)]
            )
        } else {
            format!("{} {}", rng.pick(&ADJECTIVES), rng.pick(&NOUNS))
        };
        let n = titles.entry((site.clone(), slugify(&title))).or_default();
        *n += 1;
        let slug = if *n == 1 { slugify(&title) } else { format!("{}-{}", slugify(&title), n) };
        let (f, m) = if is_channel { (all_f.clone(), all_m.clone()) } else { site_cast[site.as_str()].clone() };
        let f = if f.is_empty() { all_f.clone() } else { f };
        let m = if m.is_empty() { all_m.clone() } else { m };
        let mut cast = vec![*rng.pick(&f)];
        if rng.below(3) == 0 {
            let other = *rng.pick(&f);
            if !cast.contains(&other) {
                cast.push(other);
            }
        }
        if rng.below(2) == 0 {
            cast.push(*rng.pick(&m));
        }
        let mut cats: Vec<String> = Vec::new();
        for _ in 0..(2 + rng.below(3)) {
            let c = rng.pick(&categories).0.clone();
            if !cats.contains(&c) {
                cats.push(c);
            }
        }
        let channel = is_channel.then(|| {
            let (id, slug, _, category) = &channels[i % channels.len()];
            VideoChannel { channel_id: *id, slug: slug.clone(), channel_pack_id: None, category: *category }
        });
        let is_third_party = is_channel && channels[i % channels.len()].2 == ChannelKind::ThirdParty;
        let days_ago = ((total - i) as i64 * 3 * 365 / total.max(1) as i64) + rng.below(3) as i64;
        let cut = 5 + rng.below(4);
        videos.push(Video {
            video_id: seed_id("video", i as u64),
            legacy_id: format!("{}", 100_000 + i),
            new_id: format!("{}", 500_000 + i),
            slug,
            site,
            title: title.clone(),
            description: format!(
                "{} — a {} story filmed in soft natural light. Neutral demo description number {i}.",
                title,
                ["slow", "playful", "tender", "sunlit", "quiet"][rng.below(5)]
            ),
            release_date: at - Duration::days(days_ago) - Duration::hours(rng.below(24) as i64),
            duration_seconds: 900 + rng.below(2400) as u32,
            performer_ids: cast,
            category_slugs: cats,
            channel,
            is_third_party_channel: is_third_party,
            is_free_limited_trial: !is_channel && is_free_trial_pick(i, scale.brand_videos),
            award: u32::from(rng.below(10) == 0),
            qualities: VideoQuality::ALL[..cut].iter().copied().chain([VideoQuality::Hls]).collect(),
        });
    }

    // Packs: each channel's videos, in packs of up to 6, oldest first.
    let mut pack_of: HashMap<Uuid, Uuid> = HashMap::new();
    let mut packs = Vec::new();
    for (ci, (channel_id, channel_slug, _, _)) in channels.iter().enumerate() {
        let ids: Vec<Uuid> = videos
            .iter()
            .filter(|v| v.channel.as_ref().is_some_and(|c| c.channel_id == *channel_id))
            .map(|v| v.video_id)
            .collect();
        for (pi, chunk) in ids.chunks(6).enumerate() {
            let pack_id = seed_id("channel-pack", (ci * 10_000 + pi) as u64);
            for v in chunk {
                pack_of.insert(*v, pack_id);
            }
            packs.push(CatalogEvent::ChannelPackPublished {
                channel_pack_id: pack_id,
                channel_id: *channel_id,
                slug: format!("{channel_slug}-volume-{}", pi + 1),
                name: format!("{} Volume {}", CHANNELS[ci].0, pi + 1),
                video_ids: chunk.to_vec(),
                published_at: at,
            });
        }
    }
    for v in &mut videos {
        if let Some(c) = v.channel.as_mut() {
            c.channel_pack_id = pack_of.get(&v.video_id).copied();
        }
    }
    content.extend(videos.iter().map(|v| CatalogEvent::VideoPublished { video: v.clone(), published_at: at }));
    content.extend(packs);

    for (i, v) in
        videos.iter().enumerate().filter(|(i, _)| (i / BRANDS.len()).is_multiple_of(scale.picture_set_every.max(1)))
    {
        let count = 8 + (i % 9);
        let pictures = (0..count)
            .map(|k| {
                let portrait = (i + k) % 3 == 0;
                Picture {
                    name: format!("{}-{:02}", v.slug, k + 1),
                    width: if portrait { 1280 } else { 1920 },
                    height: if portrait { 1920 } else { 1280 },
                }
            })
            .collect();
        content.push(CatalogEvent::PictureSetPublished {
            picture_set_id: seed_id("picture-set", i as u64),
            video_id: v.video_id,
            site: v.site.clone(),
            pictures,
            published_at: at,
        });
    }

    for (bi, brand) in BRANDS.iter().enumerate() {
        let on: Vec<&Video> = videos.iter().filter(|v| v.site == *brand).collect();
        if on.is_empty() {
            continue;
        }
        for r in 0..scale.reels_per_brand {
            let v = on[(r * 7) % on.len()];
            content.push(CatalogEvent::ReelPublished {
                reel_id: seed_id("reel", (bi * 100_000 + r) as u64),
                site: (*brand).to_owned(),
                title: format!("{}, the quickie", v.title),
                video_id: v.video_id,
                duration_seconds: 20 + (r as u32 * 7) % 40,
                published_at: at - Duration::days(r as i64),
            });
        }
        for s in 0..3 {
            let title = format!(
                "{} {}",
                ADJECTIVES[(bi + s * 5) % ADJECTIVES.len()],
                ["Collection", "Favourites", "Selection"][s]
            );
            content.push(CatalogEvent::ShowcasePublished {
                showcase_id: seed_id("showcase", (bi * 10 + s) as u64),
                slug: format!("{}-{}", brand, slugify(&title)),
                title,
                description: "A hand-picked set of scenes.".into(),
                sites: vec![(*brand).to_owned()],
                video_ids: on.iter().skip(s * 5).take(8).map(|v| v.video_id).collect(),
                published_at: at,
            });
        }
        for p in 0..6 {
            let v = on[(p * 11) % on.len()];
            content.push(CatalogEvent::CuratorPostPublished {
                post_id: seed_id("curator-post", (bi * 100 + p) as u64),
                site: (*brand).to_owned(),
                title: [
                    "This week's pick",
                    "Staff favourite",
                    "Hidden gem",
                    "Don't miss",
                    "Fresh today",
                    "Editor's note",
                ][p]
                    .into(),
                text: format!("We loved the light and the mood of {}.", v.title),
                video_id: Some(v.video_id),
                published_at: at - Duration::days(p as i64 * 2),
            });
        }
    }
    for a in 0..6 {
        let (performer_id, _, _) = performers.iter().filter(|p| p.1 == "F").nth(a * 3).expect("enough performers");
        let name = match content.iter().find_map(|e| match e {
            CatalogEvent::PerformerPublished { performer_id: id, name, .. } if id == performer_id => Some(name.clone()),
            _ => None,
        }) {
            Some(n) => n,
            None => continue,
        };
        content.push(CatalogEvent::AngelPublished {
            angel_id: seed_id("angel", a as u64),
            slug: slugify(&name),
            name,
            performer_id: *performer_id,
            bio: "Loves film photography, long walks and good coffee.".into(),
            sites: angel_brands(),
            published_at: at,
        });
    }

    let mut ratings = Vec::new();
    for r in 0..scale.raters {
        let rater = seed_id("rater", r as u64);
        for (i, v) in videos.iter().enumerate() {
            if (i + r).is_multiple_of(scale.rate_every.max(1)) {
                ratings.push((rater, v.video_id, (4 + rng.below(7)) as u8));
            }
        }
    }
    Catalog { content, ratings }
}
