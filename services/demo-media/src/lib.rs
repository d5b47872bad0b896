//! Demo media, generated rather than stored: a short clip per quality that browsers play.
//!
//! No encoder is needed: the clips are H.264 (Baseline profile) whose key frames are made
//! of I_PCM macroblocks (raw samples, allowed by the standard) and whose other frames skip
//! every macroblock, muxed into an MP4 with its index first so playback starts at once and
//! Range requests seek. Each clip shows shifted colour bars: neutral test content.
//!
//! Its own crate, with no dependency, so the services that serve demo media (the unlocks
//! service's videos, the catalog's trailers) share it without depending on each other.

/// Bump when the generated files change, to regenerate them.
pub const VERSION: &str = "2";
/// Frames per second and seconds of every clip.
const FPS: u32 = 10;
const SECONDS: u32 = 6;
/// A key frame every this many frames.
const KEY_EVERY: u32 = 30;

/// The HLS stream's frame size and segment length.
pub const HLS_SIZE: (u32, u32) = (854, 480);
pub const HLS_SEGMENT_SECONDS: u32 = SECONDS;

/// The frames of a clip, as NAL units per frame (key frames first in their group).
fn frames(stream: &H264) -> Vec<(bool, Vec<u8>)> {
    (0..FPS * SECONDS)
        .map(|n| {
            if n % KEY_EVERY == 0 {
                (true, stream.key_frame(n / KEY_EVERY))
            } else {
                (false, stream.skip_frame(n % KEY_EVERY))
            }
        })
        .collect()
}

/// An MPEG-TS segment of the clip (H.264 in PES on PID 0x100), for HLS.
pub fn transport_stream(width: u32, height: u32) -> Vec<u8> {
    let stream = H264::new(width, height);
    let mut ts = Ts::default();
    for (n, (key, nal)) in frames(&stream).into_iter().enumerate() {
        if key {
            ts.tables();
        }
        let mut au = vec![0, 0, 0, 1, 0x09, 0xF0]; // access unit delimiter
        if key {
            for ps in [&stream.sps, &stream.pps] {
                au.extend_from_slice(&[0, 0, 0, 1]);
                au.extend_from_slice(ps);
            }
        }
        au.extend_from_slice(&[0, 0, 0, 1]);
        au.extend_from_slice(&nal);
        let pts = 126_000 + n as u64 * (90_000 / FPS as u64);
        ts.pes(&au, pts);
    }
    ts.out
}

const PMT_PID: u16 = 0x1000;
const VIDEO_PID: u16 = 0x100;

#[derive(Default)]
struct Ts {
    out: Vec<u8>,
    counters: std::collections::HashMap<u16, u8>,
}

/// The MPEG-2 CRC-32 of PSI sections.
fn crc32_mpeg2(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= (b as u32) << 24;
        for _ in 0..8 {
            crc = if crc & 0x8000_0000 != 0 { (crc << 1) ^ 0x04C1_1DB7 } else { crc << 1 };
        }
    }
    crc
}

impl Ts {
    fn packet(&mut self, pid: u16, start: bool, adaptation: Option<&[u8]>, payload: &[u8]) {
        let counter = self.counters.entry(pid).or_insert(0);
        let cc = *counter;
        *counter = (cc + 1) & 0x0F;
        let mut p = Vec::with_capacity(188);
        p.push(0x47);
        p.push(((start as u8) << 6) | ((pid >> 8) as u8 & 0x1F));
        p.push(pid as u8);
        // Fill to 188 bytes with the adaptation field's stuffing.
        let adaptation = adaptation.unwrap_or(&[]);
        let room = 184 - payload.len();
        if room == 0 && adaptation.is_empty() {
            p.push(0x10 | cc);
        } else {
            p.push(0x30 | cc);
            let field_len = room - 1;
            p.push(field_len as u8);
            if field_len > 0 {
                if adaptation.is_empty() {
                    p.push(0x00);
                } else {
                    p.extend_from_slice(adaptation);
                }
                while p.len() < 188 - payload.len() {
                    p.push(0xFF);
                }
            }
        }
        p.extend_from_slice(payload);
        debug_assert_eq!(p.len(), 188);
        self.out.extend_from_slice(&p);
    }

    fn section(&mut self, pid: u16, table_id: u8, id: u16, body: &[u8]) {
        let mut s = vec![table_id, 0, 0];
        s.extend_from_slice(&id.to_be_bytes());
        s.extend_from_slice(&[0xC1, 0x00, 0x00]); // version 0, current; section 0 of 0
        s.extend_from_slice(body);
        let len = s.len() - 3 + 4;
        s[1] = 0xB0 | ((len >> 8) as u8 & 0x0F);
        s[2] = len as u8;
        let crc = crc32_mpeg2(&s);
        s.extend_from_slice(&crc.to_be_bytes());
        let mut payload = vec![0u8]; // pointer field
        payload.extend_from_slice(&s);
        payload.resize(184, 0xFF);
        self.packet(pid, true, None, &payload);
    }

    /// PAT and PMT.
    fn tables(&mut self) {
        let mut pat = 1u16.to_be_bytes().to_vec(); // program 1
        pat.extend_from_slice(&(0xE000 | PMT_PID).to_be_bytes());
        self.section(0, 0x00, 1, &pat);
        let mut pmt = (0xE000 | VIDEO_PID).to_be_bytes().to_vec(); // PCR PID
        pmt.extend_from_slice(&0xF000u16.to_be_bytes()); // no program info
        pmt.push(0x1B); // H.264
        pmt.extend_from_slice(&(0xE000 | VIDEO_PID).to_be_bytes());
        pmt.extend_from_slice(&0xF000u16.to_be_bytes());
        self.section(PMT_PID, 0x02, 1, &pmt);
    }

    /// One access unit as a PES packet, its first TS packet carrying the PCR.
    fn pes(&mut self, au: &[u8], pts: u64) {
        let mut pes = vec![0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5];
        pes.push(0x21 | ((pts >> 29) as u8 & 0x0E));
        pes.push((pts >> 22) as u8);
        pes.push(((pts >> 14) as u8 & 0xFE) | 1);
        pes.push((pts >> 7) as u8);
        pes.push(((pts << 1) as u8 & 0xFE) | 1);
        pes.extend_from_slice(au);
        let pcr = pts - 9_000;
        let pcr_field = [
            0x10,
            (pcr >> 25) as u8,
            (pcr >> 17) as u8,
            (pcr >> 9) as u8,
            (pcr >> 1) as u8,
            (((pcr & 1) as u8) << 7) | 0x7E,
            0x00,
        ];
        // The first packet: adaptation field (1 length byte + 7) and up to 176 bytes.
        let first = pes.len().min(176);
        self.packet(VIDEO_PID, true, Some(&pcr_field), &pes[..first]);
        for chunk in pes[first..].chunks(184) {
            self.packet(VIDEO_PID, false, None, chunk);
        }
    }
}

/// An MP4 clip of `width` x `height`.
pub fn clip(width: u32, height: u32) -> Vec<u8> {
    let stream = H264::new(width, height);
    let frames = frames(&stream);
    let keys: Vec<u32> = frames.iter().enumerate().filter(|(_, (key, _))| *key).map(|(n, _)| n as u32 + 1).collect();
    let samples: Vec<Vec<u8>> = frames.into_iter().map(|(_, nal)| nal).collect();
    mp4(width, height, &stream.sps, &stream.pps, &samples, &keys)
}

/// An RBSP bit writer.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    cur: u8,
    used: u8,
}

impl Bits {
    fn bit(&mut self, b: bool) {
        self.cur = (self.cur << 1) | b as u8;
        self.used += 1;
        if self.used == 8 {
            self.out.push(self.cur);
            self.cur = 0;
            self.used = 0;
        }
    }

    fn u(&mut self, n: u32, value: u32) {
        for i in (0..n).rev() {
            self.bit((value >> i) & 1 == 1);
        }
    }

    fn ue(&mut self, value: u32) {
        let x = value + 1;
        let len = 32 - x.leading_zeros();
        self.u(len - 1, 0);
        self.u(len, x);
    }

    fn se(&mut self, value: i32) {
        self.ue(if value > 0 { 2 * value as u32 - 1 } else { (-2 * value) as u32 });
    }

    fn align_zero(&mut self) {
        while self.used != 0 {
            self.bit(false);
        }
    }

    fn trailing(mut self) -> Vec<u8> {
        self.bit(true);
        self.align_zero();
        self.out
    }

    /// Raw bytes (the writer must be aligned).
    fn bytes(&mut self, bytes: &[u8]) {
        debug_assert_eq!(self.used, 0);
        self.out.extend_from_slice(bytes);
    }
}

/// A NAL unit: header byte, then the RBSP with emulation prevention.
fn nal(ref_idc: u8, kind: u8, rbsp: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rbsp.len() + rbsp.len() / 64 + 1);
    out.push((ref_idc << 5) | kind);
    let mut zeros = 0;
    for &b in rbsp {
        if zeros >= 2 && b <= 3 {
            out.push(3);
            zeros = 0;
        }
        out.push(b);
        zeros = if b == 0 { zeros + 1 } else { 0 };
    }
    out
}

struct H264 {
    mbs_wide: u32,
    mbs_high: u32,
    sps: Vec<u8>,
    pps: Vec<u8>,
}

/// Colour bars (Y, Cb, Cr), BT.601 studio range.
const BARS: [(u8, u8, u8); 7] =
    [(180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58), (84, 184, 198), (65, 100, 212), (35, 212, 114)];

impl H264 {
    fn new(width: u32, height: u32) -> Self {
        let (mbs_wide, mbs_high) = (width.div_ceil(16), height.div_ceil(16));
        let level = match mbs_wide * mbs_high {
            0..=1620 => 30,
            1621..=8192 => 40,
            _ => 51,
        };
        let mut s = Bits::default();
        s.u(8, 66); // Baseline
        s.u(8, 0b1100_0000); // constraint_set0 and set1
        s.u(8, level);
        s.ue(0); // seq_parameter_set_id
        s.ue(0); // log2_max_frame_num_minus4: frame_num in 4 bits
        s.ue(2); // pic_order_cnt_type 2: output order is decoding order
        s.ue(1); // max_num_ref_frames
        s.u(1, 0); // gaps_in_frame_num_value_allowed_flag
        s.ue(mbs_wide - 1);
        s.ue(mbs_high - 1);
        s.u(1, 1); // frame_mbs_only_flag
        s.u(1, 1); // direct_8x8_inference_flag
        let (crop_right, crop_bottom) = ((mbs_wide * 16 - width) / 2, (mbs_high * 16 - height) / 2);
        if crop_right > 0 || crop_bottom > 0 {
            s.u(1, 1);
            s.ue(0);
            s.ue(crop_right);
            s.ue(0);
            s.ue(crop_bottom);
        } else {
            s.u(1, 0);
        }
        s.u(1, 0); // vui_parameters_present_flag
        let sps = nal(3, 7, &s.trailing());
        let mut p = Bits::default();
        p.ue(0); // pic_parameter_set_id
        p.ue(0); // seq_parameter_set_id
        p.u(1, 0); // entropy_coding_mode_flag: CAVLC
        p.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
        p.ue(0); // num_slice_groups_minus1
        p.ue(0); // num_ref_idx_l0_default_active_minus1
        p.ue(0); // num_ref_idx_l1_default_active_minus1
        p.u(1, 0); // weighted_pred_flag
        p.u(2, 0); // weighted_bipred_idc
        p.se(0); // pic_init_qp_minus26
        p.se(0); // pic_init_qs_minus26
        p.se(0); // chroma_qp_index_offset
        p.u(1, 0); // deblocking_filter_control_present_flag
        p.u(1, 0); // constrained_intra_pred_flag
        p.u(1, 0); // redundant_pic_cnt_present_flag
        let pps = nal(3, 8, &p.trailing());
        H264 { mbs_wide, mbs_high, sps, pps }
    }

    /// An IDR picture of I_PCM macroblocks: colour bars shifted by `shift`.
    fn key_frame(&self, shift: u32) -> Vec<u8> {
        let mut s = Bits::default();
        s.ue(0); // first_mb_in_slice
        s.ue(7); // slice_type: I, every slice of the picture
        s.ue(0); // pic_parameter_set_id
        s.u(4, 0); // frame_num
        s.ue(shift % 2); // idr_pic_id: differs between consecutive IDRs
        s.u(1, 0); // no_output_of_prior_pics_flag
        s.u(1, 0); // long_term_reference_flag
        s.se(0); // slice_qp_delta
        let width = self.mbs_wide * 16;
        let bar = |x: u32| BARS[((x * 7 / width + shift) % 7) as usize];
        let mut luma = [0u8; 256];
        let mut cb = [0u8; 64];
        let mut cr = [0u8; 64];
        for my in 0..self.mbs_high {
            for mx in 0..self.mbs_wide {
                s.ue(25); // mb_type I_PCM
                s.align_zero();
                for y in 0..16 {
                    for x in 0..16 {
                        let (px, py) = (mx * 16 + x, my * 16 + y);
                        let (l, _, _) = bar(px);
                        // A soft gradient strip across the bottom eighth.
                        let bottom = py * 8 >= self.mbs_high * 16 * 7;
                        luma[(y * 16 + x) as usize] = if bottom { 16 + (px * 219 / width) as u8 } else { l };
                    }
                }
                for y in 0..8 {
                    for x in 0..8 {
                        let (px, py) = (mx * 16 + x * 2, my * 16 + y * 2);
                        let (_, b, r) = bar(px);
                        let bottom = py * 8 >= self.mbs_high * 16 * 7;
                        cb[(y * 8 + x) as usize] = if bottom { 128 } else { b };
                        cr[(y * 8 + x) as usize] = if bottom { 128 } else { r };
                    }
                }
                s.bytes(&luma);
                s.bytes(&cb);
                s.bytes(&cr);
            }
        }
        nal(3, 5, &s.trailing())
    }

    /// A P picture that repeats the previous one: every macroblock skipped.
    fn skip_frame(&self, frame_num: u32) -> Vec<u8> {
        let mut s = Bits::default();
        s.ue(0); // first_mb_in_slice
        s.ue(5); // slice_type: P, every slice of the picture
        s.ue(0); // pic_parameter_set_id
        s.u(4, frame_num % 16);
        s.u(1, 0); // num_ref_idx_active_override_flag
        s.u(1, 0); // ref_pic_list_modification_flag_l0
        s.u(1, 0); // adaptive_ref_pic_marking_mode_flag
        s.se(0); // slice_qp_delta
        s.ue(self.mbs_wide * self.mbs_high); // mb_skip_run: all of them
        nal(2, 1, &s.trailing())
    }
}

fn boxed(kind: &[u8; 4], parts: &[&[u8]]) -> Vec<u8> {
    let len: usize = 8 + parts.iter().map(|p| p.len()).sum::<usize>();
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&(len as u32).to_be_bytes());
    out.extend_from_slice(kind);
    for p in parts {
        out.extend_from_slice(p);
    }
    out
}

fn full(kind: &[u8; 4], version: u8, flags: u32, body: &[u8]) -> Vec<u8> {
    let mut head = flags.to_be_bytes();
    head[0] = version;
    boxed(kind, &[&head, body])
}

fn be32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

const MATRIX: [u32; 9] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];

fn mp4(width: u32, height: u32, sps: &[u8], pps: &[u8], samples: &[Vec<u8>], keys: &[u32]) -> Vec<u8> {
    let ftyp = boxed(b"ftyp", &[b"isom", &0x200u32.to_be_bytes(), b"isomiso2avc1mp41"]);
    let n = samples.len() as u32;
    let timescale = 1000 * FPS;
    let delta = 1000;
    let duration_ms = n * 1000 / FPS;
    let sizes: Vec<u32> = samples.iter().map(|s| s.len() as u32 + 4).collect();
    let moov = |chunk_offset: u32| -> Vec<u8> {
        let mut mvhd = be32(&[0, 0, 1000, duration_ms, 0x0001_0000]);
        mvhd.extend_from_slice(&0x0100u16.to_be_bytes());
        mvhd.extend_from_slice(&[0; 10]);
        mvhd.extend(be32(&MATRIX));
        mvhd.extend(be32(&[0; 6]));
        mvhd.extend(be32(&[2]));
        let mut tkhd = be32(&[0, 0, 1, 0, duration_ms, 0, 0]);
        tkhd.extend_from_slice(&[0; 8]); // layer, alternate group, volume, reserved
        tkhd.extend(be32(&MATRIX));
        tkhd.extend(be32(&[width << 16, height << 16]));
        let mut mdhd = be32(&[0, 0, timescale, n * delta]);
        mdhd.extend_from_slice(&0x55C4u16.to_be_bytes()); // und
        mdhd.extend_from_slice(&[0, 0]);
        let mut hdlr = be32(&[0]);
        hdlr.extend_from_slice(b"vide");
        hdlr.extend(be32(&[0, 0, 0]));
        hdlr.extend_from_slice(b"VideoHandler\0");
        let mut avcc = vec![1, sps[1], sps[2], sps[3], 0xFF, 0xE1];
        avcc.extend_from_slice(&(sps.len() as u16).to_be_bytes());
        avcc.extend_from_slice(sps);
        avcc.push(1);
        avcc.extend_from_slice(&(pps.len() as u16).to_be_bytes());
        avcc.extend_from_slice(pps);
        let mut avc1 = vec![0u8; 6];
        avc1.extend_from_slice(&1u16.to_be_bytes());
        avc1.extend_from_slice(&[0; 16]);
        avc1.extend_from_slice(&(width as u16).to_be_bytes());
        avc1.extend_from_slice(&(height as u16).to_be_bytes());
        avc1.extend(be32(&[0x0048_0000, 0x0048_0000, 0]));
        avc1.extend_from_slice(&1u16.to_be_bytes());
        let mut name = [0u8; 32];
        name[0] = 10;
        name[1..11].copy_from_slice(b"paysite-pc");
        avc1.extend_from_slice(&name);
        avc1.extend_from_slice(&0x0018u16.to_be_bytes());
        avc1.extend_from_slice(&(-1i16).to_be_bytes());
        let avc1 = boxed(b"avc1", &[&avc1, &boxed(b"avcC", &[&avcc])]);
        let stsd = full(b"stsd", 0, 0, &[be32(&[1]), avc1].concat());
        let stts = full(b"stts", 0, 0, &be32(&[1, n, delta]));
        let stss = full(b"stss", 0, 0, &[be32(&[keys.len() as u32]), be32(keys)].concat());
        let stsc = full(b"stsc", 0, 0, &be32(&[1, 1, n, 1]));
        let stsz = full(b"stsz", 0, 0, &[be32(&[0, n]), be32(&sizes)].concat());
        let stco = full(b"stco", 0, 0, &be32(&[1, chunk_offset]));
        let stbl = boxed(b"stbl", &[&stsd, &stts, &stss, &stsc, &stsz, &stco]);
        let vmhd = full(b"vmhd", 0, 1, &[0; 8]);
        let dinf = boxed(b"dinf", &[&full(b"dref", 0, 0, &[be32(&[1]), full(b"url ", 0, 1, &[])].concat())]);
        let minf = boxed(b"minf", &[&vmhd, &dinf, &stbl]);
        let mdia = boxed(b"mdia", &[&full(b"mdhd", 0, 0, &mdhd), &full(b"hdlr", 0, 0, &hdlr), &minf]);
        let trak = boxed(b"trak", &[&full(b"tkhd", 0, 3, &tkhd), &mdia]);
        boxed(b"moov", &[&full(b"mvhd", 0, 0, &mvhd), &trak])
    };
    // The index comes first (playback starts before the whole file is fetched); its size
    // does not depend on the offset it holds.
    let moov_len = moov(0).len();
    let data_start = (ftyp.len() + moov_len + 8) as u32;
    let moov = moov(data_start);
    let mdat_len: usize = 8 + sizes.iter().map(|s| *s as usize).sum::<usize>();
    let mut out = Vec::with_capacity(ftyp.len() + moov.len() + mdat_len);
    out.extend_from_slice(&ftyp);
    out.extend_from_slice(&moov);
    out.extend_from_slice(&(mdat_len as u32).to_be_bytes());
    out.extend_from_slice(b"mdat");
    for s in samples {
        out.extend_from_slice(&(s.len() as u32).to_be_bytes());
        out.extend_from_slice(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_golomb_codes_are_the_standards() {
        let mut b = Bits::default();
        for v in [0, 1, 2, 3, 25] {
            b.ue(v);
        }
        // 1 | 010 | 011 | 00100 | 000011010, then the stop bit: 10100110 01000000 11010|1|00
        assert_eq!(b.trailing(), vec![0b1010_0110, 0b0100_0000, 0b1101_0100]);
        let mut s = Bits::default();
        s.se(1);
        s.se(-1);
        // se(1) = ue(1) = 010, se(-1) = ue(2) = 011
        assert_eq!(s.trailing(), vec![0b0100_1110]);
    }

    #[test]
    fn emulation_prevention_breaks_start_codes() {
        assert_eq!(nal(0, 1, &[0, 0, 1, 0, 0, 0]), vec![1, 0, 0, 3, 1, 0, 0, 3, 0]);
    }

    #[test]
    fn a_clip_is_an_mp4_whose_index_points_at_its_samples() {
        let bytes = clip(480, 270);
        assert_eq!(&bytes[4..8], b"ftyp");
        let ftyp_len = u32::from_be_bytes(bytes[0..4].try_into().unwrap()) as usize;
        assert_eq!(&bytes[ftyp_len + 4..ftyp_len + 8], b"moov");
        let moov_len = u32::from_be_bytes(bytes[ftyp_len..ftyp_len + 4].try_into().unwrap()) as usize;
        let mdat = ftyp_len + moov_len;
        assert_eq!(&bytes[mdat + 4..mdat + 8], b"mdat");
        assert_eq!(u32::from_be_bytes(bytes[mdat..mdat + 4].try_into().unwrap()) as usize, bytes.len() - mdat);
        // The first sample is the IDR picture, length-prefixed, right after the mdat header.
        let first = &bytes[mdat + 8..];
        let len = u32::from_be_bytes(first[0..4].try_into().unwrap()) as usize;
        assert_eq!(first[4] & 0x1f, 5, "an IDR slice");
        // 30 x 17 macroblocks of 384 PCM bytes at least.
        assert!(len > 30 * 17 * 384);
        let stco = bytes.windows(4).position(|w| w == b"stco").unwrap();
        let offset = u32::from_be_bytes(bytes[stco + 12..stco + 16].try_into().unwrap()) as usize;
        assert_eq!(offset, mdat + 8);
    }

    #[test]
    fn a_transport_stream_is_whole_packets_with_checked_tables() {
        let ts = transport_stream(480, 270);
        assert_eq!(ts.len() % 188, 0);
        assert!(ts.chunks(188).all(|p| p[0] == 0x47));
        // The PAT's CRC covers its section: a CRC over section and CRC is zero.
        let pat = &ts[..188];
        let section_len = (((pat[6] & 0x0F) as usize) << 8) | pat[7] as usize;
        assert_eq!(crc32_mpeg2(&pat[5..8 + section_len]), 0);
        assert_eq!(crc32_mpeg2(b"123456789"), 0x0376_E6E7, "the MPEG-2 check value");
    }

    #[test]
    fn the_sps_crops_to_the_display_size() {
        // 1080 lines are 68 macroblocks (1088) cropped by 8 lines.
        let h = H264::new(1920, 1080);
        assert_eq!((h.mbs_wide, h.mbs_high), (120, 68));
        assert_eq!(h.sps[0], 0x67);
        assert_eq!((h.sps[1], h.sps[3]), (66, 40));
    }
}
