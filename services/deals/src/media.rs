//! Generated placeholder images for deals: a neutral card with the partner's name, as SVG,
//! at `/media/deals/{deal id}/{logo|thumb}-{w}x{h}.svg`. The demo deals point their logo and
//! thumbnail sizes here, so nothing is fetched from an outside image host.

use uuid::Uuid;

use crate::input::MAX_SIDE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Logo,
    Thumb,
}

impl ImageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ImageKind::Logo => "logo",
            ImageKind::Thumb => "thumb",
        }
    }
}

/// The path of a generated image, as a deal's `src`.
pub fn image_path(deal_id: Uuid, kind: ImageKind, width: u32, height: u32) -> String {
    format!("/media/deals/{deal_id}/{}-{width}x{height}.svg", kind.as_str())
}

/// Reads `logo-200x60.svg`; sizes from 1 to the largest image side.
pub fn parse_file(file: &str) -> Option<(ImageKind, u32, u32)> {
    let stem = file.strip_suffix(".svg")?;
    let (kind, size) = stem.split_once('-')?;
    let kind = match kind {
        "logo" => ImageKind::Logo,
        "thumb" => ImageKind::Thumb,
        _ => return None,
    };
    let (w, h) = size.split_once('x')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(w) || !digits(h) {
        return None;
    }
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    ((1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h)).then_some((kind, w, h))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A card of `width` x `height` with `label` centred, its colour taken from `seed` so each
/// deal keeps its own.
pub fn placeholder_svg(label: &str, kind: ImageKind, width: u32, height: u32, seed: Uuid) -> String {
    let hue = (seed.as_u128() % 360) as u32;
    let (background, foreground) = match kind {
        ImageKind::Logo => (format!("hsl({hue},35%,96%)"), format!("hsl({hue},45%,28%)")),
        ImageKind::Thumb => (format!("hsl({hue},40%,32%)"), "#ffffff".to_owned()),
    };
    let font = (height as f32 * 0.28).min(width as f32 / (label.chars().count().max(1) as f32 * 0.62)).max(6.0);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         role=\"img\" aria-label=\"{label}\">\
         <rect width=\"100%\" height=\"100%\" fill=\"{background}\"/>\
         <text x=\"50%\" y=\"50%\" dominant-baseline=\"middle\" text-anchor=\"middle\" \
         font-family=\"system-ui, sans-serif\" font-size=\"{font:.1}\" fill=\"{foreground}\">{label}</text></svg>",
        label = escape(label),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_round_trip_and_odd_ones_are_refused() {
        let id = Uuid::from_u128(7);
        let path = image_path(id, ImageKind::Thumb, 320, 180);
        assert_eq!(path, format!("/media/deals/{id}/thumb-320x180.svg"));
        assert_eq!(parse_file("thumb-320x180.svg"), Some((ImageKind::Thumb, 320, 180)));
        assert_eq!(parse_file("logo-200x60.svg"), Some((ImageKind::Logo, 200, 60)));
        for bad in
            ["logo-0x60.svg", "logo-5000x60.svg", "logo-200x60.png", "icon-1x1.svg", "logo-x60.svg", "logo-+2x3.svg"]
        {
            assert_eq!(parse_file(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_label_is_escaped() {
        let svg = placeholder_svg("A&B <Films>", ImageKind::Logo, 200, 60, Uuid::from_u128(1));
        assert!(svg.contains("A&amp;B &lt;Films&gt;"));
        assert!(!svg.contains("<Films>"));
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
    }
}
