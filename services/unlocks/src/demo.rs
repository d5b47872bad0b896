//! The local stack's demo media (`demo` feature): one generated clip per downloadable quality
//! and the HLS segment, muxed by the `demo-media` dev crate into the media directory. A
//! production build leaves this out and serves whatever the media directory holds.

use std::path::Path;

pub use demo_media::{clip, transport_stream, HLS_SIZE};

use crate::quota::QUALITIES;

// The playlist the media endpoint writes states the segments' length.
const _: () = assert!(demo_media::HLS_SEGMENT_SECONDS == crate::media::HLS_SEGMENT_SECONDS);

/// Makes sure `<dir>/demo/<quality>.mp4` exists for every downloadable quality, and the HLS
/// stream's segment `<dir>/demo/hls/segment0.ts`; returns how many files it wrote.
pub fn ensure(dir: &Path) -> anyhow::Result<usize> {
    let clips: Vec<(&str, u32, u32)> =
        QUALITIES.iter().filter(|q| q.width > 0).map(|q| (q.key, q.width, q.height)).collect();
    demo_media::ensure(dir, &clips)
}
