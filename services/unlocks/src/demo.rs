//! The demo media files of the unlocks service: a generated clip per downloadable quality and
//! the HLS segment (the muxer is the `demo-media` crate's). Files are written to a temporary
//! name and renamed, so concurrent generators never see half a file.

use std::path::Path;

pub use demo_media::{clip, transport_stream, HLS_SEGMENT_SECONDS, HLS_SIZE};

use crate::quota::QUALITIES;

/// Makes sure `<dir>/demo/<quality>.mp4` exists for every downloadable quality, and the HLS
/// stream's segment `<dir>/demo/hls/segment0.ts`; returns how many files it wrote.
pub fn ensure(dir: &Path) -> anyhow::Result<usize> {
    let demo = dir.join("demo");
    std::fs::create_dir_all(demo.join("hls"))?;
    let marker = demo.join(format!(".version-{}", demo_media::VERSION));
    let mut written = 0;
    let write = |path: &Path, bytes: Vec<u8>| -> anyhow::Result<()> {
        let tmp = demo.join(format!(".{}.tmp", uuid::Uuid::new_v4().simple()));
        std::fs::write(&tmp, &bytes)?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    };
    for q in QUALITIES.iter().filter(|q| q.width > 0) {
        let path = demo.join(format!("{}.mp4", q.key));
        if marker.is_file() && path.is_file() {
            continue;
        }
        write(&path, clip(q.width, q.height))?;
        written += 1;
    }
    let segment = demo.join("hls").join("segment0.ts");
    if !(marker.is_file() && segment.is_file()) {
        write(&segment, transport_stream(HLS_SIZE.0, HLS_SIZE.1))?;
        written += 1;
    }
    std::fs::write(&marker, b"")?;
    Ok(written)
}
