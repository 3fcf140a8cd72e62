//! The layout parser, both orders: seed notation (`Layout: FromStr`) and CuTe notation
//! (`Layout::from_cute`, `cute::CuteLayout: FromStr`), and the small parsers beside them. Every
//! accepted text prints back to a text that parses to the same layout, and evaluates, at every
//! position, as the independent evaluators of [`super::model`] do on its trees. The text is
//! also read as an expression of `layout_core::expr` ([`super::expr`]).

use layout_core::cute::{self, Tiler};
use layout_core::{Error, Layout, Space};

use super::BRUTE_LIMIT;
use super::model::{CuteLay, Lay};

fn touch(e: &Error) {
    let _ = (e.to_string(), e.rule(), e.help(), e.mode());
}

/// Seed-order layout: the evaluation at every position agrees with the model; the seed text
/// and the CuTe text both read back to it; the CuTe text evaluates the same on CuTe's order.
fn seed_layout(l: &Layout) {
    let model = Lay::of(l);
    assert_eq!(i128::from(l.size()), model.size(), "size of {l}");
    let text = l.to_string();
    let back: Layout = text
        .parse()
        .unwrap_or_else(|e| panic!("{text} (printed) does not parse: {e}"));
    assert_eq!(&back, l, "seed text {text} reads back differently");
    let cute_text = l.to_cute().to_string();
    let back = Layout::from_cute(&cute_text)
        .unwrap_or_else(|e| panic!("{cute_text} (printed CuTe) does not parse: {e}"));
    // A size-1 leaf may come back with stride 0 for `_` (CuTe prints both as 0): compare the
    // trees' shapes and the functions.
    // CuTe text carries no names, so a named 1-tuple comes back as its leaf.
    assert_eq!(
        super::bytes::leaves(back.shape()),
        super::bytes::leaves(l.shape()),
        "CuTe text {cute_text} shape"
    );
    if l.size() <= BRUTE_LIMIT {
        assert_eq!(
            Lay::of(&back).offsets(),
            Lay::of(l).offsets(),
            "CuTe text {cute_text}"
        );
    }
    let size = l.size();
    let cute_model = cute::CuteLayout::from_seed(l);
    let cl = CuteLay::of(&cute_model);
    if size <= BRUTE_LIMIT {
        for i in 0..size {
            let want = model.eval(i128::from(i)).expect("in range");
            match l.eval_index(i) {
                Ok(v) => assert_eq!(i128::from(v), want, "{l} at {i}"),
                Err(e) => {
                    assert!(
                        i64::try_from(want).is_err(),
                        "{l} at {i}: error {e} for the offset {want}"
                    );
                }
            }
            // The same integer in CuTe order reaches the same offset (broadcast = 0).
            assert_eq!(cl.eval(i128::from(i)), Some(want), "{l}: CuTe order at {i}");
        }
        assert!(l.eval_index(size).is_err(), "{l}: index {size} accepted");
    }
    assert!(l.eval_index(-1).is_err(), "{l}: index -1 accepted");
}

/// CuTe-order layout read by `cute::CuteLayout`: prints back to itself; its seed form evaluates the
/// same at every integer.
fn cute_layout(c: &cute::CuteLayout) {
    let text = c.to_string();
    let back: cute::CuteLayout = text
        .parse()
        .unwrap_or_else(|e| panic!("{text} (printed) does not parse: {e}"));
    assert_eq!(&back, c, "CuTe text {text} reads back differently");
    let model = CuteLay::of(c);
    assert_eq!(i128::from(c.size()), model.size(), "size of {c}");
    if c.size() <= BRUTE_LIMIT {
        let seed = c.to_seed();
        for i in 0..c.size() {
            let want = model.eval(i128::from(i)).expect("in range");
            match c.eval_index(i) {
                Ok(v) => assert_eq!(i128::from(v), want, "{c} at {i}"),
                Err(e) => assert!(i64::try_from(want).is_err(), "{c} at {i}: {e}"),
            }
            if let Ok(s) = &seed
                && let Ok(v) = s.eval_index(i)
            {
                assert_eq!(i128::from(v), want, "{c} as seed {s} at {i}");
            }
        }
    }
}

/// Runs every parser on the input read as UTF-8.
pub fn check(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if text.len() > 512 {
        return;
    }
    match text.parse::<Layout>() {
        Ok(l) => seed_layout(&l),
        Err(e) => touch(&e),
    }
    match Layout::from_cute(text) {
        Ok(l) => {
            seed_layout(&l);
            // The text read as CuTe names the same function as the CuTe layer reads.
            if let Ok(c) = text.parse::<cute::CuteLayout>() {
                let (model, seed) = (CuteLay::of(&c), Lay::of(&l));
                if c.size() <= BRUTE_LIMIT {
                    for i in 0..i128::from(c.size()) {
                        assert_eq!(model.eval(i), seed.eval(i), "{text}: orders differ at {i}");
                    }
                }
            }
        }
        Err(e) => touch(&e),
    }
    match text.parse::<cute::CuteLayout>() {
        Ok(c) => cute_layout(&c),
        Err(e) => touch(&e),
    }
    match text.parse::<Tiler>() {
        Ok(t) => {
            let printed = t.to_string();
            let back: Tiler = printed
                .parse()
                .unwrap_or_else(|e| panic!("tiler {printed} (printed) does not parse: {e}"));
            assert_eq!(back, t, "tiler {printed} reads back differently");
        }
        Err(e) => touch(&e),
    }
    if let Err(e) = cute::parse_swizzle(text) {
        touch(&e);
    }
    if let Err(e) = cute::parse_cotarget(text) {
        touch(&e);
    }
    if let Err(e) = cute::parse_profile(text) {
        touch(&e);
    }
    composed(text);
    let _ = text.parse::<Space>();
    // The same text as a layout, declaration or expression of `layout_core::expr`.
    super::expr::check_text(text);
}

/// CuTe's swizzled layouts (`Swizzle<B,M,S> o L`): read back after printing.
pub fn composed(text: &str) {
    match text.parse::<cute::Composed>() {
        Ok(c) => {
            let printed = c.to_string();
            let back: cute::Composed = printed
                .parse()
                .unwrap_or_else(|e| panic!("{printed} (printed) does not parse: {e}"));
            assert_eq!(
                back.to_string(),
                printed,
                "{printed} reads back differently"
            );
        }
        Err(e) => touch(&e),
    }
}
