//! The guide in `docs/` as a checked book: every relative link of the README and of
//! `docs/*.md` points to an existing file (and, with `#anchor`, to an existing heading of a
//! markdown file), the table of contents `docs/README.md` lists every page, and every page is
//! compiled as doctests of `layout-typed` (`#[doc = include_str!(..)]` in its `lib.rs`).
//! The quoted compiler messages are checked by `ui-tests/tests/gallery.rs`.
//! Every path, link and `module::item` name of `ARCHITECTURE.md` exists.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The README and every `docs/*.md`.
fn pages() -> Vec<PathBuf> {
    let root = workspace();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A markdown file split into its prose and its code fences.
struct Split<'a> {
    /// The lines outside fenced code blocks, with their line numbers.
    lines: Vec<(usize, &'a str)>,
    /// The line number and info string (`rust`, `text`, …) of each opening fence.
    fences: Vec<(usize, String)>,
}

/// The prose lines and the fences of a markdown file.
fn prose(md: &str) -> Split<'_> {
    let mut lines = Vec::new();
    let mut fences = Vec::new();
    let mut in_fence = false;
    for (i, line) in md.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            if !in_fence {
                fences.push((i + 1, t.trim_start_matches('`').trim().to_string()));
            }
            in_fence = !in_fence;
        } else if !in_fence {
            lines.push((i + 1, line));
        }
    }
    Split { lines, fences }
}

/// A line without its inline code spans.
fn strip_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let fence = &rest[start..start + ticks];
        match rest[start + ticks..].find(fence) {
            Some(end) => rest = &rest[start + ticks + end + ticks..],
            None => {
                rest = &rest[start + ticks..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of `[text](target)` and `![alt](target)` links (and `src="..."` of HTML
/// images) in a line whose code spans are stripped.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let mut depth = 0usize;
        let mut end = None;
        for (j, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(j);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &after[end..];
    }
    let mut rest = line;
    while let Some(i) = rest.find("src=\"") {
        let after = &rest[i + 5..];
        let Some(end) = after.find('"') else { break };
        targets.push(after[..end].to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's heading anchor: lower case, spaces to `-`, other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file's headings (duplicates get `-1`, `-2`, … as on GitHub).
fn anchors(md: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose(md).lines {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&t[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" 1. Notation and mode order"),
        "1-notation-and-mode-order"
    );
    assert_eq!(
        slug(" 3. `divide` and `divide_modes`"),
        "3-divide-and-divide_modes"
    );
    assert_eq!(
        slug(" Thread-value → physical only as a composite"),
        "thread-value--physical-only-as-a-composite"
    );
    assert_eq!(
        link_targets("see [`a`](x.md#b) and ![p](img/p.svg \"t\") or [c](f(1).md)"),
        ["x.md#b", "img/p.svg", "f(1).md"]
    );
    assert_eq!(strip_code("a `[x](y)` b ``c`d`` [e](f)"), "a  b  [e](f)");
}

#[test]
fn relative_links_point_to_existing_files_and_headings() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for page in pages() {
        let md = fs::read_to_string(&page).expect("page");
        let dir = page.parent().expect("dir");
        for (n, line) in prose(&md).lines {
            for target in link_targets(&strip_code(line)) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    dir.join(path)
                };
                let at = format!("{}:{n}: `{target}`", page.display());
                if !file.exists() {
                    broken.push(format!("{at}: no file {}", file.display()));
                    continue;
                }
                if let Some(anchor) = anchor
                    && file.extension().is_some_and(|e| e == "md")
                {
                    let text = fs::read_to_string(&file).expect("linked page");
                    if !anchors(&text).contains(anchor) {
                        broken.push(format!("{at}: no heading with anchor #{anchor}"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 50, "only {checked} relative links found");
}

#[test]
fn the_table_of_contents_lists_every_page() {
    let root = workspace();
    let toc = fs::read_to_string(root.join("docs").join("README.md")).expect("docs/README.md");
    let linked: BTreeSet<String> = prose(&toc)
        .lines
        .iter()
        .flat_map(|(_, l)| link_targets(&strip_code(l)))
        .map(|t| t.split('#').next().unwrap_or("").to_string())
        .collect();
    for page in pages().iter().skip(1) {
        let name = page
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        if name == "README.md" {
            continue;
        }
        assert!(
            linked.contains(&name),
            "docs/README.md (the table of contents) does not link docs/{name}"
        );
    }
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(
        readme.contains("](docs/README.md)"),
        "the README links the guide's table of contents"
    );
}

#[test]
fn every_page_is_compiled_as_doctests() {
    let root = workspace();
    let lib = fs::read_to_string(root.join("layout-typed").join("src").join("lib.rs"))
        .expect("layout-typed/src/lib.rs");
    for page in pages() {
        let rel = page
            .strip_prefix(&root)
            .expect("in the workspace")
            .to_string_lossy()
            .replace('\\', "/");
        let include = format!("#[doc = include_str!(\"../../{rel}\")]");
        assert!(
            lib.contains(&include),
            "{rel} is not compiled: add `{include} #[cfg(doctest)] pub struct ..;` to \
             layout-typed/src/lib.rs"
        );
        // rustdoc compiles a fence without a language as Rust: every fence names one.
        let md = fs::read_to_string(&page).expect("page");
        for (n, info) in prose(&md).fences {
            assert!(
                !info.is_empty(),
                "{rel}:{n}: a code block without a language (```rust, ```text, ```sh, …)"
            );
        }
    }
}

/// The headings of `docs/spec.md` (outside code fences), in order.
fn spec_headings() -> Vec<String> {
    let md = fs::read_to_string(workspace().join("docs").join("spec.md")).expect("docs/spec.md");
    headings_of(&md)
}

/// The text of every markdown heading of `md` (outside code fences).
fn headings_of(md: &str) -> Vec<String> {
    prose(md)
        .lines
        .iter()
        .filter_map(|(_, line)| {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            (1..=6)
                .contains(&hashes)
                .then(|| line[hashes..].strip_prefix(' '))
                .flatten()
                .map(|h| h.trim().to_string())
        })
        .collect()
}

/// The citation form: `spec: Heading` right after `(` or `; `, the heading running to the next
/// `;` or `)` on the same line. Returns each cited heading with its line number, and the lines
/// where a citation is not closed on its line.
fn citations(text: &str) -> (Vec<(usize, String)>, Vec<usize>) {
    const TAG: &str = "spec: ";
    let mut cited = Vec::new();
    let mut unclosed = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(i) = line[from..].find(TAG) {
            let at = from + i;
            from = at + TAG.len();
            if !(line[..at].ends_with('(') || line[..at].ends_with("; ")) {
                continue;
            }
            let rest = &line[from..];
            match rest.find([';', ')']) {
                Some(end) => cited.push((n + 1, rest[..end].trim().to_string())),
                None => unclosed.push(n + 1),
            }
        }
    }
    (cited, unclosed)
}

/// Every text file of the workspace that the repository holds: the sources, docs, snapshots
/// and scripts, without build output, hidden folders, data files and fuzz corpora.
fn workspace_texts() -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .expect("a folder of the workspace")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .to_string();
            if name.starts_with('.') || name == "target" || name == "corpus" {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else if !name.ends_with(".json")
                && let Ok(text) = fs::read_to_string(&path)
            {
                let rel = path
                    .strip_prefix(root)
                    .expect("in the workspace")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, text));
            }
        }
    }
    let root = workspace();
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

/// This file names the citation form in its own tests; it is not a citing file.
const THIS_FILE: &str = "tests/tests/docs.rs";

#[test]
fn the_citation_form_is_read_exactly() {
    let text = "a (spec: Divide) b (spec: Repeat; spec: Interleave)\n\
                c (other words; spec: Theorem 1) d spec: Not cited (x spec: Not cited)\n\
                e (spec: Dangling";
    let (cited, unclosed) = citations(text);
    assert_eq!(
        cited,
        [
            (1, "Divide".to_string()),
            (1, "Repeat".to_string()),
            (1, "Interleave".to_string()),
            (2, "Theorem 1".to_string()),
        ]
    );
    assert_eq!(unclosed, [3]);
    let md = "# Title\n## Notation\n```text\n# not a heading\n```\n### Mode order\n#nope\n";
    assert_eq!(headings_of(md), ["Title", "Notation", "Mode order"]);
}

#[test]
fn every_spec_citation_names_a_heading_of_the_spec() {
    let headings = spec_headings();
    let known: BTreeSet<&str> = headings.iter().map(String::as_str).collect();
    assert_eq!(
        known.len(),
        headings.len(),
        "docs/spec.md repeats a heading, so a citation of it is ambiguous"
    );
    let mut total = 0;
    let mut broken = Vec::new();
    for (path, text) in workspace_texts() {
        if path == THIS_FILE {
            continue;
        }
        let (cited, unclosed) = citations(&text);
        for n in unclosed {
            broken.push(format!(
                "{path}:{n}: a citation not closed by `;` or `)` on its line"
            ));
        }
        for (n, heading) in cited {
            total += 1;
            if !known.contains(heading.as_str()) {
                broken.push(format!(
                    "{path}:{n}: no heading `{heading}` in docs/spec.md"
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "citations of missing headings:\n{}",
        broken.join("\n")
    );
    // The code cites the spec throughout; a count near zero means the form stopped matching.
    assert!(total >= 200, "only {total} citations of docs/spec.md found");
}

#[test]
fn no_citation_names_a_document_outside_the_repository() {
    // Built from pieces so that this file does not match itself.
    let section = '\u{a7}';
    let (spec, seed, paper) = ("SPEC", ["seed", "Seed"], "000");
    let mut forbidden = vec![format!("{spec} {section}"), format!("{spec}.md")];
    for seed in seed {
        forbidden.push(format!("{seed} {section}"));
        forbidden.push(format!("{seed} {paper} "));
    }
    let mut found = Vec::new();
    for (path, text) in workspace_texts() {
        for (n, line) in text.lines().enumerate() {
            for f in &forbidden {
                if line.contains(f.as_str()) {
                    found.push(format!("{path}:{}: `{f}`: {}", n + 1, line.trim()));
                }
            }
            // A citation broken across lines (`SPEC` / `§8`, `seed` / `000 §1`): a line of
            // prose or comment that begins with the section sign.
            let body = line
                .trim_start()
                .trim_start_matches(['/', '!', '#', '*'])
                .trim_start();
            if body.starts_with(section) || body.starts_with(&format!("{paper} {section}")) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite docs/spec.md by heading, `(spec: Heading)`, or the paper by its title:\n{}",
        found.join("\n")
    );
}

/// The contents of a line's inline code spans.
fn code_spans(line: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let fence = &rest[start..start + ticks];
        let body = &rest[start + ticks..];
        let Some(end) = body.find(fence) else { break };
        spans.push(body[..end].trim());
        rest = &body[end + ticks..];
    }
    spans
}

/// The part of a code span that names a repository path, if it looks like one: no
/// whitespace, and a `/` or a `.rs`, `.md` or `.toml` ending. A glob (`*`, `<area>`, `…`)
/// keeps the folder before it (`tests/tests/cute_*.rs` names `tests/tests`).
fn named_path(span: &str) -> Option<&str> {
    if span.is_empty() || span.chars().any(char::is_whitespace) || span.contains("::") {
        return None;
    }
    if !(span.contains('/') || [".rs", ".md", ".toml"].iter().any(|e| span.ends_with(e))) {
        return None;
    }
    let path = match span.find(['*', '<', '…']) {
        Some(glob) => &span[..span[..glob].rfind('/').unwrap_or(0)],
        None => span.trim_end_matches('/'),
    };
    (!path.is_empty()).then_some(path)
}

/// Whether `text` defines an item `name`: `fn name`, `struct name`, … or an enum variant
/// (a line starting with `name` followed by `,`, `(`, ` {` or its end).
fn defines(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let kinds = [
        "fn",
        "struct",
        "enum",
        "trait",
        "mod",
        "type",
        "const",
        "static",
        "macro_rules!",
    ];
    kinds.iter().any(|kind| {
        let key = format!("{kind} {name}");
        text.match_indices(&key).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + key.len()..].chars().next();
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
    }) || text.lines().any(|l| {
        l.trim_start().strip_prefix(name).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with([',', '(']) || rest.starts_with(" {")
        })
    })
}

/// Every path ARCHITECTURE.md names in backticks exists (from the root, or as the end of a
/// workspace path: `expr/lex.rs`, a test file by its name), every relative link points to an
/// existing file and heading, and the last segment of every `module::item` name it cites is
/// an item defined in the workspace's Rust sources (lints and clap's derived `parse` aside).
#[test]
fn every_name_the_architecture_page_cites_exists() {
    let root = workspace();
    let page = root.join("ARCHITECTURE.md");
    let md = fs::read_to_string(&page).expect("ARCHITECTURE.md");
    let files = workspace_texts();
    let exists = |p: &str| {
        root.join(p).exists()
            || files
                .iter()
                .any(|(rel, _)| rel.ends_with(&format!("/{p}")) || rel.contains(&format!("/{p}/")))
    };
    let sources: Vec<&str> = files
        .iter()
        .filter(|(rel, _)| rel.ends_with(".rs"))
        .map(|(_, t)| t.as_str())
        .collect();
    let (mut paths, mut names, mut links) = (0, 0, 0);
    let mut missing = Vec::new();
    for (n, line) in prose(&md).lines {
        for span in code_spans(line) {
            if let Some(p) = named_path(span) {
                paths += 1;
                if !exists(p) {
                    missing.push(format!("ARCHITECTURE.md:{n}: no path `{p}`"));
                }
            }
            let segments: Vec<&str> = span.split("::").collect();
            let is_name = segments.len() > 1
                && segments.iter().all(|s| {
                    s.chars()
                        .next()
                        .is_some_and(|c| c.is_alphabetic() || c == '_')
                        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                });
            let last = segments.last().copied().unwrap_or("");
            if is_name && segments[0] != "clippy" && span != "Cli::parse" {
                names += 1;
                if !sources.iter().any(|t| defines(t, last)) {
                    missing.push(format!("ARCHITECTURE.md:{n}: no item `{last}` of `{span}`"));
                }
            }
        }
        for target in link_targets(&strip_code(line)) {
            if target.contains("://") {
                continue;
            }
            links += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = root.join(path);
            if !file.exists() {
                missing.push(format!("ARCHITECTURE.md:{n}: no file `{path}`"));
            } else if !anchor.is_empty() {
                let text = fs::read_to_string(&file).expect("linked page");
                if !anchors(&text).contains(anchor) {
                    missing.push(format!(
                        "ARCHITECTURE.md:{n}: no heading #{anchor} in {path}"
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what is not there:\n{}",
        missing.join("\n")
    );
    assert!(
        paths >= 60 && names >= 30 && links >= 4,
        "{paths} paths, {names} names, {links} links"
    );
}
