//! `layout draw`: pictures of layouts as SVG or terminal text.
//!
//! * a map with a domain of one or two top-level modes: the grid of its values, rows = the
//!   first mode, columns = the second (CuTe's `print_layout`), cells colored by `value mod 8`;
//! * a `thread-value -> logical` layout over a 2-D tile: each tile cell shows the thread and
//!   value that hold it, colored by thread (CuTe's `print_latex` of a TV layout);
//! * a swizzled map: the grid before and after the swizzle, colored by the swizzle's
//!   destination bits, so the XOR pattern is visible.
//!
//! In CuTe order (`--cute`) rows are CuTe's first mode: the picture CuTe prints.

use std::fmt::Write as _;
use std::path::Path;

use layout_core::{Error, Map, Space, Tree};
use serde::Serialize;

use crate::Output;
use crate::commands::{eval_expr, failure, main_source, to_json};
use crate::diag::{Diag, JsonError, Source};

/// Options of `draw`.
pub struct Options<'a> {
    /// The expression.
    pub expr: &'a str,
    /// Where to write the SVG (`-`: stdout).
    pub output: Option<&'a Path>,
    /// Print the grid as text.
    pub text: bool,
    /// `ROWS,COLS` of a thread-value layout's tile, in the command's notation.
    pub tile: Option<&'a str>,
    /// CuTe order and orientation.
    pub cute: bool,
    /// The `--def` definitions.
    pub defs: &'a [String],
    /// JSON output.
    pub json: bool,
}

/// The most cells a picture has.
pub const MAX_CELLS: usize = 1 << 16;

/// CuTe's `print_latex` colors for thread-value layouts (`TikzColor_TV`), as RGB.
pub const PALETTE: [&str; 8] = [
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
];

/// A picture's content, in display orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    /// The values of a map.
    Values {
        /// `grid[row][col]`.
        grid: Vec<Vec<i64>>,
    },
    /// A swizzle: the values before and after, colored by the destination field.
    Swizzle {
        /// Before the swizzle.
        before: Vec<Vec<i64>>,
        /// After.
        after: Vec<Vec<i64>>,
        /// Lowest destination bit.
        dst: u32,
        /// `2^b − 1`.
        mask: i64,
    },
    /// A thread-value layout over its tile.
    ThreadValue {
        /// The thread holding each tile cell.
        threads: Vec<Vec<i64>>,
        /// Its value index.
        values: Vec<Vec<i64>>,
    },
}

#[derive(Serialize)]
struct DrawJson {
    kind: &'static str,
    title: String,
    rows: usize,
    cols: usize,
    grid: Vec<Vec<i64>>,
    before: Option<Vec<Vec<i64>>>,
    values: Option<Vec<Vec<i64>>>,
    output: Option<String>,
    errors: Vec<JsonError>,
}

fn transpose(g: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
    let cols = g.first().map_or(0, Vec::len);
    (0..cols)
        .map(|c| g.iter().map(|row| row[c]).collect())
        .collect()
}

/// Rows and columns of a domain of one or two top-level entries (seed order), from the entries'
/// sizes ([`Map::domain_entry_sizes`]: a restriction that leaves one tuple entry free has one
/// entry); a domain of none (every entry fixed) is one cell.
fn grid_shape(entries: &[i64]) -> Option<(i64, i64)> {
    match *entries {
        [] => Some((1, 1)),
        [n] => Some((1, n)),
        [rows, cols] => Some((rows, cols)),
        _ => None,
    }
}

fn values_grid(map: &Map, rows: i64, cols: i64, src: &Source<'_>) -> Result<Vec<Vec<i64>>, Diag> {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    // Past i64 the index is out of range, which eval_index reports.
                    let i = r.checked_mul(cols).and_then(|x| x.checked_add(c));
                    map.eval_index(i.unwrap_or(-1))
                })
                .collect::<Result<Vec<i64>, _>>()
        })
        .collect::<Result<_, _>>()
        .map_err(|e| Diag::core(&e, src, 0, None))
}

fn too_large(cells: i64, src: &crate::diag::Source<'_>) -> Option<Diag> {
    (cells > i64::try_from(MAX_CELLS).unwrap_or(i64::MAX)).then(|| {
        let limit = i64::try_from(MAX_CELLS).unwrap_or(i64::MAX);
        Diag::core(&Error::PictureTooLarge { cells, limit }, src, 0, None)
    })
}

/// Which top-level mode of a thread-value layout numbers threads: a mode named `thread` or
/// `lane`, else the first mode as written (seed order: mode 0; CuTe order: the last).
pub fn thread_mode(names: &[Option<String>], rank: usize, cute: bool) -> usize {
    if let Some(i) = names
        .iter()
        .position(|n| matches!(n.as_deref(), Some("thread" | "lane" | "thr")))
    {
        return i;
    }
    if cute { rank.saturating_sub(1) } else { 0 }
}

/// Builds the picture of a map.
///
/// # Errors
/// A map whose domain has more than two top-level modes, a thread-value layout without a 2-D
/// tile, or more than [`MAX_CELLS`] cells.
pub fn picture(map: &Map, o: &Options<'_>) -> Result<Picture, Diag> {
    let src = main_source(o.expr);
    if (map.domain(), map.codomain()) == (Space::ThreadValue, Space::Logical) {
        let tile: Vec<i64> = match (o.tile, map.codomain_tile()) {
            (Some(t), _) => {
                let mut v = parse_tile(t)?;
                if o.cute {
                    v.reverse();
                }
                v
            }
            (None, Some(t)) => t.to_vec(),
            (None, None) => {
                return Err(Diag::core(&Error::DrawNoTile, &src, 0, None));
            }
        };
        let (rows, cols) = match tile.as_slice() {
            [r, c] => (*r, *c),
            [n] => (1, *n),
            _ => {
                let e = Error::DrawTileExtents {
                    extents: tile.len(),
                };
                return Err(Diag::core(&e, &src, 0, None));
            }
        };
        if rows.checked_mul(cols) != Some(map.size()) {
            let e = Error::DrawTileSize {
                rows,
                cols,
                size: map.size(),
            };
            return Err(Diag::core(&e, &src, 0, None));
        }
        if let Some(d) = too_large(rows.checked_mul(cols).unwrap_or(i64::MAX), &src) {
            return Err(d);
        }
        let Map::Layout(a) = map else {
            return Err(Diag::core(&Error::DrawNotLayout, &src, 0, None));
        };
        let l = a.layout();
        let rank = l.rank();
        let tm = thread_mode(l.names(), rank, o.cute);
        let entry_size = |k: usize| match l.shape() {
            Tree::Tuple(v) => v.get(k).map_or(1, |e| {
                e.leaves()
                    .into_iter()
                    .fold(1i64, |acc, &n| acc.saturating_mul(n))
            }),
            Tree::Leaf(n) => *n,
        };
        let (threads, values) = if rank == 2 {
            (entry_size(tm), entry_size(1usize.saturating_sub(tm)))
        } else {
            (l.size(), 1)
        };
        // rows·cols ≤ MAX_CELLS (checked above).
        let (rows_n, cols_n) = (
            usize::try_from(rows).unwrap_or(0),
            usize::try_from(cols).unwrap_or(0),
        );
        let mut t_grid = vec![vec![-1i64; cols_n]; rows_n];
        let mut v_grid = t_grid.clone();
        for t in 0..threads {
            for v in 0..values {
                let flat = if rank != 2 {
                    t
                } else if tm == 0 {
                    // t < threads, v < values: a flat index below size(l).
                    t.saturating_mul(values).saturating_add(v)
                } else {
                    v.saturating_mul(threads).saturating_add(t)
                };
                let i = map
                    .eval_index(flat)
                    .map_err(|e| Diag::core(&e, &src, 0, None))?;
                let at = |x: Option<i64>| x.and_then(|x| usize::try_from(x).ok());
                let (Some(r), Some(c)) = (at(i.checked_div(cols)), at(i.checked_rem(cols))) else {
                    continue;
                };
                if let Some(cell) = t_grid.get_mut(r).and_then(|row| row.get_mut(c)) {
                    *cell = t;
                }
                if let Some(cell) = v_grid.get_mut(r).and_then(|row| row.get_mut(c)) {
                    *cell = v;
                }
            }
        }
        return Ok(if o.cute {
            Picture::ThreadValue {
                threads: transpose(t_grid),
                values: transpose(v_grid),
            }
        } else {
            Picture::ThreadValue {
                threads: t_grid,
                values: v_grid,
            }
        });
    }
    let entries = map.domain_entry_sizes();
    let Some((rows, cols)) = grid_shape(&entries) else {
        let e = Error::DrawRank {
            rank: entries.len(),
        };
        return Err(Diag::core(&e, &src, 0, None));
    };
    if let Some(d) = too_large(rows.checked_mul(cols).unwrap_or(i64::MAX), &src) {
        return Err(d);
    }
    let orient = |g: Vec<Vec<i64>>| if o.cute { transpose(g) } else { g };
    if let Map::Swizzled { swizzle, inner } = map {
        return Ok(Picture::Swizzle {
            before: orient(values_grid(inner, rows, cols, &src)?),
            after: orient(values_grid(map, rows, cols, &src)?),
            dst: swizzle.dst(),
            // bits ≤ 62 for a built swizzle: 2^b − 1 ≥ 0.
            mask: (1i64 << swizzle.bits()).wrapping_sub(1),
        });
    }
    Ok(Picture::Values {
        grid: orient(values_grid(map, rows, cols, &src)?),
    })
}

fn parse_tile(t: &str) -> Result<Vec<i64>, Diag> {
    let src = Source {
        name: "--tile",
        text: t,
    };
    // The entries between `(`, `)`, `,` and `x`, each with its byte offset.
    let inner_start = t
        .len()
        .saturating_sub(t.trim_start().trim_start_matches('(').len());
    let inner = t.trim().trim_start_matches('(').trim_end_matches(')');
    let mut out = Vec::new();
    let mut at = inner_start;
    for p in inner.split([',', 'x']) {
        let lead = p.len().saturating_sub(p.trim_start().len());
        match p.trim().parse::<i64>().ok().filter(|v| *v > 0) {
            Some(v) => out.push(v),
            None => {
                return Err(Diag::option(
                    layout_core::CliOption::Tile,
                    &src,
                    at.saturating_add(lead),
                ));
            }
        }
        at = at.saturating_add(p.len()).saturating_add(1);
    }
    Ok(out)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const CELL_H: usize = 20;
const FONT: usize = 12;
const CHAR_W: usize = 7;

struct Panel<'a> {
    title: String,
    grid: &'a [Vec<i64>],
    labels: Option<&'a [Vec<i64>]>,
    /// The palette index of each cell.
    colors: Vec<Vec<usize>>,
}

fn colors(g: &[Vec<i64>], key: impl Fn(i64) -> i64) -> Vec<Vec<usize>> {
    g.iter()
        .map(|row| {
            row.iter()
                .map(|&v| {
                    let colours = i64::try_from(PALETTE.len()).unwrap_or(1);
                    usize::try_from(key(v).rem_euclid(colours)).unwrap_or(0)
                })
                .collect()
        })
        .collect()
}

fn text_width(g: &[Vec<i64>]) -> usize {
    g.iter()
        .flatten()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
}

/// The SVG text of a picture (deterministic: the snapshot tests compare it byte for byte).
pub fn svg(p: &Picture, title: &str) -> String {
    let panels: Vec<Panel<'_>> = match p {
        Picture::Values { grid } => vec![Panel {
            title: String::new(),
            grid,
            labels: None,
            colors: colors(grid, |v| v),
        }],
        Picture::Swizzle {
            before,
            after,
            dst,
            mask,
        } => {
            let field = |v: i64| (v >> dst) & mask;
            vec![
                Panel {
                    title: "before the swizzle".into(),
                    grid: before,
                    labels: None,
                    colors: colors(before, field),
                },
                Panel {
                    title: "after the swizzle".into(),
                    grid: after,
                    labels: None,
                    colors: colors(after, field),
                },
            ]
        }
        Picture::ThreadValue { threads, values } => vec![Panel {
            title: String::new(),
            grid: threads,
            labels: Some(values),
            colors: colors(threads, |t| t),
        }],
    };
    render(title, &panels)
}

// Pixel geometry: a picture has at most MAX_CELLS cells (too_large runs before any Picture is
// built) and each label is at most 21 characters (an i64), so every coordinate below is a sum
// of products of numbers below 2^16 and a few hundred pixels: far below usize::MAX.
#[allow(clippy::arithmetic_side_effects)]
fn render(title: &str, panels: &[Panel<'_>]) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<text x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text>",
        CELL_H - 4,
        esc(title)
    );
    // Panel titles (a swizzle's "before" and "after") take a second line.
    let subtitles = panels.len() > 1;
    let head = if subtitles { 2 * CELL_H } else { CELL_H };
    let mut x0 = 0usize;
    let mut height = 0usize;
    let mut width = (title.chars().count() + 1) * CHAR_W;
    for p in panels {
        let rows = p.grid.len();
        let cols = p.grid.first().map_or(0, Vec::len);
        let (chars, cell_h) = match p.labels {
            Some(v) => (1 + text_width(p.grid).max(text_width(v)), 2 * CELL_H),
            None => (text_width(p.grid), CELL_H),
        };
        let cell_w = ((chars + 1) * CHAR_W + 6).max(24);
        let label_w = (rows.saturating_sub(1).to_string().len() + 1) * CHAR_W + 4;
        let top = head + CELL_H + 4;
        let gx = x0 + label_w;
        if subtitles {
            let _ = writeln!(
                body,
                "<text x=\"{gx}\" y=\"{}\">{}</text>",
                head - 4,
                esc(&p.title)
            );
        }
        for c in 0..cols {
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{c}</text>",
                gx + c * cell_w + cell_w / 2,
                top - 6
            );
        }
        for r in 0..rows {
            let y = top + r * cell_h;
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{r}</text>",
                gx - 4,
                y + cell_h / 2 + FONT / 3
            );
            for c in 0..cols {
                let x = gx + c * cell_w;
                let fill = PALETTE[p.colors[r][c]];
                let _ = write!(
                    body,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{cell_w}\" height=\"{cell_h}\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"0.5\"/>"
                );
                let cx = x + cell_w / 2;
                match p.labels {
                    Some(v) => {
                        let _ = writeln!(
                            body,
                            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">T{}</text><text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">V{}</text>",
                            y + CELL_H - 5,
                            p.grid[r][c],
                            y + 2 * CELL_H - 6,
                            v[r][c]
                        );
                    }
                    None => {
                        let _ = writeln!(
                            body,
                            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                            y + cell_h / 2 + FONT / 3,
                            p.grid[r][c]
                        );
                    }
                }
            }
        }
        let w = label_w + cols * cell_w;
        height = height.max(top + rows * cell_h);
        width = width.max(x0 + w);
        x0 += w + 3 * CHAR_W;
    }
    let width = width + 8;
    let height = height + 8;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"{FONT}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n"
    )
}

/// The text grid of one panel, in CuTe's `print_layout` style.
// Widths of labels (at most 21 characters) times at most MAX_CELLS columns: see `render`.
#[allow(clippy::arithmetic_side_effects)]
fn text_panel(out: &mut String, title: &str, grid: &[Vec<i64>], labels: Option<&[Vec<i64>]>) {
    let cell = |r: usize, c: usize| match labels {
        Some(v) => format!("T{}V{}", grid[r][c], v[r][c]),
        None => grid[r][c].to_string(),
    };
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let w = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| cell(r, c).len())
        .chain((0..cols).map(|c| c.to_string().len()))
        .max()
        .unwrap_or(1);
    let lw = rows.saturating_sub(1).to_string().len();
    let _ = writeln!(out, "{title}");
    let _ = write!(out, "{:lw$}  ", "");
    for c in 0..cols {
        let _ = write!(out, " {c:>w$} ");
    }
    out.push('\n');
    let sep = format!(
        "{:lw$}  +{}\n",
        "",
        format!("{}+", "-".repeat(w + 2)).repeat(cols)
    );
    out.push_str(&sep);
    for r in 0..rows {
        let _ = write!(out, "{r:>lw$}  |");
        for c in 0..cols {
            let _ = write!(out, " {:>w$} |", cell(r, c));
        }
        out.push('\n');
        out.push_str(&sep);
    }
}

/// The text form of a picture.
pub fn text(p: &Picture, title: &str) -> String {
    let mut out = String::new();
    match p {
        Picture::Values { grid } => text_panel(&mut out, title, grid, None),
        Picture::Swizzle { before, after, .. } => {
            text_panel(
                &mut out,
                &format!("before the swizzle: {title}"),
                before,
                None,
            );
            out.push('\n');
            text_panel(&mut out, "after the swizzle", after, None);
        }
        Picture::ThreadValue { threads, values } => {
            text_panel(&mut out, title, threads, Some(values));
        }
    }
    out
}

/// `layout draw EXPR [-o FILE] [--text] [--tile R,C] [--cute] [--json]`.
pub fn command(o: &Options<'_>) -> Output {
    let map = match eval_expr(o.expr, o.cute, o.defs) {
        Ok(m) => m,
        Err(d) => return failure(&d, o.json, false),
    };
    let pic = match picture(&map, o) {
        Ok(p) => p,
        Err(d) => return failure(&[d], o.json, false),
    };
    let title = format!(
        "{}  ({} -> {})",
        o.expr.trim(),
        map.domain(),
        map.codomain()
    );
    let mut stdout = String::new();
    let to_stdout =
        o.output.is_some_and(|p| p == Path::new("-")) || (o.output.is_none() && !o.text && !o.json);
    if let Some(path) = o.output.filter(|p| *p != Path::new("-"))
        && let Err(e) = std::fs::write(path, svg(&pic, &title))
    {
        let d = Diag::io(path, &e);
        return failure(&[d], o.json, false);
    }
    if to_stdout {
        stdout.push_str(&svg(&pic, &title));
    }
    if o.json {
        let (kind, grid, before, values) = match &pic {
            Picture::Values { grid } => ("values", grid.clone(), None, None),
            Picture::Swizzle { before, after, .. } => {
                ("swizzle", after.clone(), Some(before.clone()), None)
            }
            Picture::ThreadValue { threads, values } => {
                ("thread-value", threads.clone(), None, Some(values.clone()))
            }
        };
        let j = DrawJson {
            kind,
            title,
            rows: grid.len(),
            cols: grid.first().map_or(0, Vec::len),
            grid,
            before,
            values,
            output: o
                .output
                .filter(|p| *p != Path::new("-"))
                .map(|p| p.display().to_string()),
            errors: Vec::new(),
        };
        stdout.push_str(&to_json(&j));
    } else if o.text {
        stdout.push_str(&text(&pic, &title));
    }
    Output {
        stdout,
        stderr: Vec::new(),
        status: 0,
    }
}
