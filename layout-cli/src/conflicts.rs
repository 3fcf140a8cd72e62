//! `layout conflicts SMEM --tv TV [--bits 32] [--vector 1] [--warp 0]`: shared-memory bank
//! conflicts of one warp (`layout_core::banks`).

use std::fmt::Write as _;

use layout_core::Error;
use layout_core::banks::{Conflicts, WarpAccess, conflicts};
use serde::Serialize;

use crate::Output;
use crate::commands::{failure, main_source, notation, to_json};
use crate::diag::{Diag, JsonError, Source, Span};
use crate::expr::{definitions, diags, evaluate, layout_arg};

/// Options of `conflicts`.
pub struct Options<'a> {
    /// The shared-memory map.
    pub smem: &'a str,
    /// The thread-value layout.
    pub tv: &'a str,
    /// Element width in bits.
    pub bits: u32,
    /// Values per access.
    pub vector: i64,
    /// Which warp.
    pub warp: i64,
    /// CuTe order.
    pub cute: bool,
    /// The `--def` definitions.
    pub defs: &'a [String],
    /// JSON output.
    pub json: bool,
}

#[derive(Serialize)]
struct PhaseJson {
    lanes: [i64; 2],
    active: i64,
    wavefronts: u64,
    ideal: u64,
    banks: Vec<u32>,
}

#[derive(Serialize)]
struct InstructionJson {
    value: i64,
    wavefronts: u64,
    ideal: u64,
    ways: u64,
    phases: Vec<PhaseJson>,
}

#[derive(Serialize)]
struct ConflictsJson {
    smem: String,
    tv: String,
    bits: u32,
    vector: i64,
    warp: i64,
    thread_mode: usize,
    access_bytes: i64,
    lanes_per_phase: i64,
    ways: u64,
    wavefronts: u64,
    ideal: u64,
    conflict_free: bool,
    instructions: Vec<InstructionJson>,
    errors: Vec<JsonError>,
}

/// The report's verdict in words.
pub fn verdict(r: &Conflicts) -> String {
    if r.is_conflict_free() {
        format!(
            "conflict-free: {} wavefronts, the minimum for these bytes",
            r.wavefronts
        )
    } else {
        format!(
            "{}-way bank conflict: {} wavefronts where {} would do ({:.2}x)",
            r.ways,
            r.wavefronts,
            r.ideal,
            r.wavefronts as f64 / r.ideal.max(1) as f64
        )
    }
}

/// `layout conflicts`.
pub fn command(o: &Options<'_>) -> Output {
    let src = main_source(o.smem);
    let tv_src = Source {
        name: "--tv",
        text: o.tv,
    };
    let smem = definitions(o.defs, o.cute).and_then(|env| {
        let span = layout_core::expr::parse_expr(o.smem, &crate::expr::options(o.cute))
            .map(|e| e.span())
            .unwrap_or(0..0);
        evaluate(&src, o.cute, &env).map(|v| (v.map, Span::new(span.start, span.end)))
    });
    let tv = layout_arg(&tv_src, o.cute)
        .map_err(|d| vec![d])
        .and_then(|l| match &l.layout {
            Ok(layout) => Ok((
                layout.clone(),
                Span::new(l.written.span.start, l.written.span.end),
            )),
            Err(errs) => Err(diags(errs, &tv_src)),
        });
    let ((smem, smem_span), (tv, tv_span)) = match (smem, tv) {
        (Ok(s), Ok(t)) => (s, t),
        (s, t) => {
            let errs: Vec<Diag> = [s.err(), t.err()].into_iter().flatten().flatten().collect();
            return failure(&errs, o.json, false);
        }
    };
    let thread_mode = crate::draw::thread_mode(tv.names(), tv.rank(), o.cute);
    let access = WarpAccess {
        element_bits: o.bits,
        vector: o.vector,
        warp: o.warp,
        thread_mode,
    };
    let r = match conflicts(&smem, &tv, &access) {
        Ok(r) => r,
        Err(e) => {
            let at = match e {
                Error::BankStorage { .. } => Some((&src, smem_span)),
                Error::LaneOutOfTile { .. }
                | Error::ThreadMode { .. }
                | Error::NotVector { .. } => Some((&tv_src, tv_span)),
                _ => None,
            };
            return failure(&[Diag::bank(&e, at)], o.json, false);
        }
    };
    let smem_text = match &smem {
        layout_core::Map::Layout(a) => notation(a.layout(), o.cute),
        _ => o.smem.trim().to_string(),
    };
    if o.json {
        let j = ConflictsJson {
            smem: smem_text,
            tv: notation(&tv, o.cute),
            bits: o.bits,
            vector: o.vector,
            warp: o.warp,
            thread_mode: if o.cute {
                tv.rank().saturating_sub(1).saturating_sub(thread_mode)
            } else {
                thread_mode
            },
            access_bytes: r.access_bytes,
            lanes_per_phase: r.lanes_per_phase,
            ways: r.ways,
            wavefronts: r.wavefronts,
            ideal: r.ideal,
            conflict_free: r.is_conflict_free(),
            instructions: r
                .instructions
                .iter()
                .map(|i| InstructionJson {
                    value: i.first_value,
                    wavefronts: i.wavefronts(),
                    ideal: i.ideal(),
                    ways: i.ways(),
                    phases: i
                        .phases
                        .iter()
                        .map(|p| PhaseJson {
                            lanes: [p.lanes.0, p.lanes.1],
                            active: p.active,
                            wavefronts: p.wavefronts,
                            ideal: p.ideal,
                            banks: p.banks.to_vec(),
                        })
                        .collect(),
                })
                .collect(),
            errors: Vec::new(),
        };
        return Output {
            stdout: to_json(&j),
            stderr: Vec::new(),
            status: 0,
        };
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "smem     {smem_text}  ({} -> {})",
        smem.domain(),
        smem.codomain()
    );
    let threads_written = if o.cute {
        tv.rank().saturating_sub(1).saturating_sub(thread_mode)
    } else {
        thread_mode
    };
    let _ = writeln!(
        out,
        "tv       {}  (thread mode {threads_written})",
        notation(&tv, o.cute)
    );
    let _ = writeln!(
        out,
        "access   warp {}: {} x {}-bit per lane and instruction ({} bytes), phases of {} lanes",
        o.warp, o.vector, o.bits, r.access_bytes, r.lanes_per_phase
    );
    let _ = writeln!(out, "instr  values  wavefronts  ideal  ways  worst bank");
    const SHOWN: usize = 64;
    for (k, i) in r.instructions.iter().enumerate().take(SHOWN) {
        let worst = i
            .phases
            .iter()
            .flat_map(|p| p.banks.iter().enumerate())
            .max_by_key(|(b, n)| (**n, std::cmp::Reverse(*b)))
            .map_or(String::new(), |(b, n)| format!("{b} ({n} words)"));
        let values = if o.vector == 1 {
            i.first_value.to_string()
        } else {
            format!(
                "{}..{}",
                i.first_value,
                i.first_value.saturating_add(o.vector)
            )
        };
        let _ = writeln!(
            out,
            "{k:>5}  {values:<6}  {:>10}  {:>5}  {:>4}  {worst}",
            i.wavefronts(),
            i.ideal(),
            i.ways()
        );
    }
    if r.instructions.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ...  ({} more instructions; --json lists all)",
            r.instructions.len().saturating_sub(SHOWN)
        );
    }
    let _ = writeln!(out, "total    {}", verdict(&r));
    Output {
        stdout: out,
        stderr: Vec::new(),
        status: 0,
    }
}
