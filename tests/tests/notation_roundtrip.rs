//! `FromStr`/`Display` and `from_cute`/`to_cute` round trips on every layout string of the CuTe
//! corpus, and evaluation against an independent colexicographic CuTe evaluator (and against
//! the corpus offsets where it gives them).

use layout_core::{Error, Layout, Stride};
use layout_tests::{CuteText, ints, load, looks_like_layout, sample_indices};
use serde_json::Value;

/// Every string of the corpus written in layout notation, with the offsets the corpus gives
/// for it (for `expected.result` only) and where it came from.
fn corpus_layout_strings() -> Vec<(String, String, Option<Vec<i64>>)> {
    let mut out = Vec::new();
    for case in load("cute_corpus.json") {
        let id = case["id"].as_str().expect("id").to_owned();
        if let Value::Object(inputs) = &case["inputs"] {
            for (k, v) in inputs {
                if let Some(s) = v.as_str().filter(|s| looks_like_layout(s)) {
                    out.push((format!("{id} inputs.{k}"), s.to_owned(), None));
                }
            }
        }
        if let Some(s) = case["expected"]["result"]
            .as_str()
            .filter(|s| looks_like_layout(s))
        {
            let offsets = ints(&case["expected"]["offsets"]);
            out.push((format!("{id} expected.result"), s.to_owned(), offsets));
        }
        if let Some(s) = case["cpp"]["result"]
            .as_str()
            .filter(|s| looks_like_layout(s))
        {
            out.push((format!("{id} cpp.result"), s.to_owned(), None));
        }
    }
    out
}

#[test]
fn every_corpus_layout_round_trips_and_evaluates_like_cute() {
    let strings = corpus_layout_strings();
    let (mut checked, mut invalid, mut with_offsets) = (0u32, 0u32, 0u32);
    for (wher, text, offsets) in &strings {
        let oracle = CuteText::parse(text).unwrap_or_else(|| panic!("{wher}: `{text}`"));
        let l = match Layout::from_cute(text) {
            Ok(l) => l,
            Err(e) => {
                // The only invalid layouts of the corpus are inputs with a size below 1.
                assert!(!oracle.sizes_positive(), "{wher}: `{text}` rejected: {e}");
                assert!(matches!(e, Error::NonPositiveSize { .. }), "{wher}: {e:?}");
                invalid += 1;
                continue;
            }
        };
        assert!(oracle.sizes_positive(), "{wher}: `{text}` accepted");

        // CuTe text round trip: structural equality, and the same leaves as written.
        let cute = l.to_cute().to_string();
        assert_eq!(
            Layout::from_cute(&cute).as_ref(),
            Ok(&l),
            "{wher}: `{text}` -> `{cute}`"
        );
        let back = CuteText::parse(&cute).expect("to_cute prints CuTe notation");
        assert_eq!(
            back.leaves(),
            oracle.leaves(),
            "{wher}: `{text}` -> `{cute}`"
        );

        // Seed text round trip.
        let seed = l.to_string();
        assert_eq!(seed.parse::<Layout>().as_ref(), Ok(&l), "{wher}: `{seed}`");

        // Leaves: reversed order, stride 0 of size > 1 read as the broadcast.
        let modes: Vec<(i64, Stride)> = l.modes().iter().map(|m| (m.size, m.stride)).collect();
        let expected: Vec<(i64, Stride)> = oracle
            .to_flat()
            .modes
            .iter()
            .map(|&(n, d)| (n, d.map_or(Stride::Broadcast, Stride::Int)))
            .collect();
        assert_eq!(modes, expected, "{wher}: `{text}`");
        assert_eq!(l.is_broadcast(), oracle.has_broadcast(), "{wher}");

        // Values: the whole domain up to 2^14 coordinates, a spread sample beyond.
        assert_eq!(l.size(), oracle.size(), "{wher}");
        for i in sample_indices(l.size(), 1 << 14) {
            assert_eq!(
                l.eval_index(i),
                Ok(oracle.eval(i)),
                "{wher}: `{text}` at {i}"
            );
        }
        if let Some(offs) = offsets {
            assert_eq!(offs.len() as i64, l.size(), "{wher}");
            for (i, &o) in offs.iter().enumerate() {
                assert_eq!(oracle.eval(i as i64), o, "{wher}: oracle vs corpus at {i}");
                assert_eq!(l.eval_index(i as i64), Ok(o), "{wher}: `{text}` at {i}");
            }
            with_offsets += 1;
        }
        checked += 1;
    }
    println!(
        "{checked} corpus layouts round-tripped ({with_offsets} against corpus offsets), {invalid} invalid inputs rejected"
    );
    assert!(checked >= 500 && with_offsets >= 100);
}

#[test]
fn named_layouts_round_trip_through_display() {
    // Names label top-level modes; Display writes what FromStr reads.
    for text in [
        "(thread: 32, value: 4):(4, 1)",
        "(rows: (2,4), cols: 8):((_,8),1)",
    ] {
        let l: Layout = text.parse().expect("valid");
        assert_eq!(l.to_string().parse::<Layout>().as_ref(), Ok(&l), "{text}");
        assert_eq!(l.names().len(), l.rank());
    }
}
