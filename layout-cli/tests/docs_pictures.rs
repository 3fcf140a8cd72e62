//! The pictures of the guide (`docs/img/*.svg`) are drawn by this binary: each must equal what
//! `layout draw` prints today for the command the guide shows next to it, and parse as XML.
//! Redraw them with `UPDATE_SNAPSHOTS=1 cargo test -p layout-cli --test docs_pictures`.

use std::path::Path;
use std::process::Command;

/// Each picture and the `layout` arguments that draw it (the guide quotes the same command).
const PICTURES: &[(&str, &[&str])] = &[
    // docs/guide.md §1: one layout in its two notations.
    ("reversal-seed.svg", &["draw", "(8,4):(4,1)"]),
    ("reversal-cute.svg", &["draw", "--cute", "cute (4,8):(1,4)"]),
    // docs/getting-started.md §5: the SM80 16×8 C fragment as CuTe's print_latex draws it.
    (
        "sm80-c-fragment.svg",
        &[
            "draw",
            "--cute",
            "[cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)]",
        ],
    ),
];

#[test]
fn the_guides_pictures_are_current() {
    let img = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join("img");
    for (name, args) in PICTURES {
        let out = Command::new(env!("CARGO_BIN_EXE_layout"))
            .args(*args)
            .args(["-o", "-"])
            .output()
            .expect("run layout");
        assert!(out.status.success(), "layout {args:?} failed: {out:?}");
        let svg = String::from_utf8(out.stdout).expect("UTF-8");
        roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
        let path = img.join(name);
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&path, &svg).expect("write the picture");
            continue;
        }
        let have = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("docs/img/{name}: {e} (UPDATE_SNAPSHOTS=1 draws it)"));
        assert!(
            have == svg,
            "docs/img/{name} differs from `layout {}` (UPDATE_SNAPSHOTS=1 redraws it)",
            args.join(" ")
        );
    }
    // Every picture in docs/img/ is one of these.
    for entry in std::fs::read_dir(&img).expect("docs/img") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".svg") {
            assert!(
                PICTURES.iter().any(|(n, _)| *n == name),
                "docs/img/{name} is not drawn by this test; add its command to PICTURES"
            );
        }
    }
}
