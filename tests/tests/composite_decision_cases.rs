//! The `scan`, `decide` and `restrict` cases of `seed000_cases.json` (spec: The scan; spec: Theorem 1; spec: Restriction),
//! maps built from their JSON serialisation with [`json_map`].
//!
//! The emitted and as-written programs and their division/modulus counts in these cases
//! (`emitted_program`, `emitted_div`, `emitted_mod`, `written_program`, `written_div`,
//! `written_mod`, `program`, `div`, `mod`, `emitted_as`, `names`) belong to the emission work
//! (spec: Code emission) and are tested with it; they are skipped here.

use layout_core::{
    ChainRef, Chains, Decision, Layout, Map, NotLayout, Space, compose, decide, decide_values, scan,
};
use layout_tests::{ChainOracle, chain_value, corpus, int, ints, json_map, seed_cases};
use serde_json::Value;

fn flag(v: &Value) -> bool {
    v.as_bool().unwrap_or_else(|| panic!("not a bool: {v}"))
}

fn name(c: &Value) -> &str {
    c["name"].as_str().unwrap_or("?")
}

#[test]
fn scan_cases() {
    let cases = seed_cases("scan");
    assert!(!cases.is_empty());
    for c in &cases {
        let g = ints(&c["g"]).expect("g");
        let verdict = ChainOracle::new(g.len()).check(&g);
        match scan(&g) {
            Ok(chain) => {
                assert!(flag(&c["accept"]), "g = {g:?}: accepted, the case rejects");
                assert_eq!(Some(chain.chain().to_vec()), ints(&c["chain"]), "g = {g:?}");
                assert_eq!(Some(chain.shape.to_vec()), ints(&c["shape"]), "g = {g:?}");
                assert_eq!(
                    Some(chain.strides.to_vec()),
                    ints(&c["strides"]),
                    "g = {g:?}"
                );
                let r: Vec<i64> = chain.recorded().iter().map(|x| x.0).collect();
                assert_eq!(Some(r), ints(&c["R"]), "g = {g:?}");
                let a = c["a"].as_object().expect("a");
                assert_eq!(a.len(), chain.recorded().len(), "g = {g:?}");
                for (t, at) in &chain.recorded() {
                    assert_eq!(
                        i64::try_from(*at).ok(),
                        a[&t.to_string()].as_i64(),
                        "g = {g:?}, a_{t}"
                    );
                }
                assert_eq!(
                    verdict.minimal(),
                    Some(&chain.chain().to_vec()),
                    "g = {g:?}: oracle"
                );
            }
            Err(t) => {
                assert!(
                    !flag(&c["accept"]),
                    "g = {g:?}: rejected at {t}, the case accepts"
                );
                assert_eq!(t, int(&c["reject_at"]), "g = {g:?}");
                assert_eq!(verdict.reject_at, Some(t), "g = {g:?}: oracle");
            }
        }
    }
}

/// Checks one chain against a case's per-coordinate entry of `coarsest_shape` and
/// `coarsest_strides` (or `shape`/`strides`): an integer is a one-piece coordinate, a list a
/// split, slowest first.
fn check_piece(what: &str, chain: ChainRef<'_>, shape: &Value, strides: &Value) {
    match (shape, strides) {
        (Value::Array(_), Value::Array(_)) => {
            assert!(
                chain.chain().len() > 1,
                "{what}: a split is expected, got {chain:?}"
            );
            assert_eq!(Some(chain.shape.to_vec()), ints(shape), "{what}");
            assert_eq!(Some(chain.strides.to_vec()), ints(strides), "{what}");
        }
        _ => {
            assert_eq!(chain.chain(), vec![1], "{what}: one piece is expected");
            assert_eq!(chain.shape, vec![int(shape)], "{what}");
            assert_eq!(chain.strides, vec![int(strides)], "{what}");
        }
    }
}

/// The map's value at every flat index, checked against the case's `values`.
fn check_values(what: &str, map: &Map, values: &[i64]) {
    assert_eq!(map.size(), values.len() as i64, "{what}: size");
    for (i, &v) in values.iter().enumerate() {
        assert_eq!(map.eval_index(i as i64), Ok(v), "{what}: value at {i}");
    }
}

/// The decision's chains rebuild every value (`constant + Σ` over the coordinates).
fn check_rebuilt(what: &str, d: &Decision, chains: &Chains, values: &[i64]) {
    for (i, &v) in values.iter().enumerate() {
        let mut rest = i as i64;
        let mut sum = d.constant;
        for (n, chain) in d.coordinate_shape.iter().zip(chains).rev() {
            sum += chain_value(rest % n, &chain.chain(), chain.shape, chain.strides);
            rest /= n;
        }
        assert_eq!(sum, v, "{what}: rebuilt value at {i}");
    }
}

#[test]
fn decide_cases() {
    let cases = seed_cases("decide");
    assert!(!cases.is_empty());
    for c in &cases {
        let what = name(c);
        let map = json_map(&c["map"]).unwrap_or_else(|e| panic!("{what}: {e}"));
        let values = ints(&c["values"]).expect("values");
        check_values(what, &map, &values);
        let by_mode = flag(&c["by_mode"]);
        let d = decide(&map, by_mode).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            Some(d.coordinate_shape.to_vec()),
            ints(&c["coordinate_shape"]),
            "{what}"
        );
        assert_eq!(d.constant, 0, "{what}: a composite vanishes at 0");
        assert_eq!(
            d.is_layout(),
            flag(&c["is_layout"]),
            "{what}: {:?}",
            d.result
        );
        // The tabulated form decides the same from the case's own values.
        assert_eq!(
            decide_values(&d.coordinate_shape, &values).map(Chains::from),
            d.result,
            "{what}: decide_values"
        );
        match &d.result {
            Ok(chains) => {
                let shapes = c["coarsest_shape"].as_array().expect("coarsest_shape");
                let strides = c["coarsest_strides"].as_array().expect("coarsest_strides");
                let expected_chains = c["chains"].as_array().expect("chains");
                assert_eq!(chains.len(), shapes.len(), "{what}");
                assert_eq!(chains.len(), strides.len(), "{what}");
                assert_eq!(chains.len(), expected_chains.len(), "{what}");
                for (i, chain) in chains.iter().enumerate() {
                    let w = format!("{what}, coordinate {i}");
                    assert_eq!(
                        Some(chain.chain().to_vec()),
                        ints(&expected_chains[i]),
                        "{w}"
                    );
                    check_piece(&w, chain, &shapes[i], &strides[i]);
                }
                let split = chains.iter().filter(|ch| ch.chain().len() > 1).count() as i64;
                assert_eq!(
                    split,
                    int(&c["split_coordinates"]),
                    "{what}: split coordinates"
                );
                check_rebuilt(what, &d, chains, &values);
            }
            Err(NotLayout::Separability { witness }) => {
                assert_eq!(c["reason"], "separability", "{what}");
                assert_eq!(Some(witness.clone()), ints(&c["witness"]), "{what}");
            }
            Err(NotLayout::Scan { coordinate, t }) => {
                assert_eq!(c["reason"], "scan", "{what}");
                assert_eq!(
                    Some(vec![*coordinate as i64, *t]),
                    ints(&c["witness"]),
                    "{what}: witness (coordinate, t)"
                );
            }
        }
    }
}

#[test]
fn restrict_cases() {
    let cases = seed_cases("restrict");
    assert!(!cases.is_empty());
    for c in &cases {
        let what = name(c);
        let map = json_map(&c["map"]).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(map.is_restricted(), "{what}");
        let values = ints(&c["values"]).expect("values");
        check_values(what, &map, &values);
        let d = decide(&map, false).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            Some(d.coordinate_shape.to_vec()),
            ints(&c["free_leaf_shape"]),
            "{what}"
        );
        assert_eq!(d.constant, int(&c["const"]), "{what}: constant");
        assert_eq!(d.constant, values[0], "{what}: constant");
        assert_eq!(
            d.is_layout(),
            flag(&c["is_layout"]),
            "{what}: {:?}",
            d.result
        );
        let shifted: Vec<i64> = values.iter().map(|v| v - d.constant).collect();
        assert_eq!(
            decide_values(&d.coordinate_shape, &shifted).map(Chains::from),
            d.result,
            "{what}: decide_values"
        );
        if let Ok(chains) = &d.result {
            let shapes = c["shape"].as_array().expect("shape");
            let strides = c["strides"].as_array().expect("strides");
            assert_eq!(chains.len(), shapes.len(), "{what}");
            assert_eq!(chains.len(), strides.len(), "{what}");
            for (i, chain) in chains.iter().enumerate() {
                check_piece(
                    &format!("{what}, coordinate {i}"),
                    chain,
                    &shapes[i],
                    &strides[i],
                );
            }
            check_rebuilt(what, &d, chains, &values);
        }
    }
}

/// The composite of the `decide` benchmark (bench/benches/decide.rs): the corpus's
/// `big_tv_partition_128x128` (256 threads × 8 values over 2×4 tiles of 64×32 in a 128×128
/// row-major tile) as a `thread-value -> logical` map, after the row-major storage
/// `(128,128):(128,1)`. Its values are the corpus offsets, and it is a layout whose coarsest
/// form is the partition layout itself (every leaf one piece).
#[test]
fn tv_partition_128x128_composite() {
    let cases = corpus("composition");
    let case = cases
        .iter()
        .find(|c| c["id"] == "big_tv_partition_128x128")
        .expect("corpus case big_tv_partition_128x128");
    let tv = Layout::from_cute(case["expected"]["result"].as_str().expect("result"))
        .expect("the partition layout");
    let storage: Layout = "(128,128):(128,1)".parse().expect("storage");
    let tv = layout_core::Annotated::new(tv, Space::ThreadValue, Space::Logical).expect("dense");
    let storage =
        layout_core::Annotated::new(storage, Space::Logical, Space::Physical).expect("storage");
    let map = compose(&storage.into(), &tv.clone().into()).expect("composite");
    let offsets = ints(&case["expected"]["offsets"]).expect("offsets");
    assert_eq!(offsets.len(), 16384);
    check_values("tv_partition_128x128", &map, &offsets);
    let d = decide(&map, false).expect("decide");
    let chains = d.result.as_ref().expect("a layout");
    let leaves: Vec<i64> = tv.layout().shape().leaves().into_iter().copied().collect();
    assert_eq!(d.coordinate_shape, leaves);
    let strides: Vec<i64> = tv
        .layout()
        .stride()
        .leaves()
        .into_iter()
        .map(|s| s.value())
        .collect();
    for ((chain, n), s) in chains.iter().zip(&leaves).zip(&strides) {
        assert_eq!(
            (
                &chain.chain().to_vec(),
                &chain.shape.to_vec(),
                &chain.strides.to_vec()
            ),
            (&vec![1], &vec![*n], &vec![*s])
        );
    }
    check_rebuilt("tv_partition_128x128", &d, chains, &offsets);
    // By mode: the two top-level modes (2×4 tiles, 256 threads × 8 values) read as one integer
    // each. Each is a layout of a refinement; the oracle finds the coarsest chain of each.
    let by_mode = decide(&map, true).expect("decide by mode");
    assert_eq!(by_mode.coordinate_shape, vec![8, 2048]);
    let chains = by_mode.result.as_ref().expect("a layout by mode");
    for (i, (chain, &w)) in chains.iter().zip(&[2048i64, 1]).enumerate() {
        let n = by_mode.coordinate_shape[i];
        let g: Vec<i64> = (0..n).map(|t| offsets[(t * w) as usize]).collect();
        let oracle = ChainOracle::new(n as usize);
        let verdict = oracle.check(&g);
        assert_eq!(verdict.minimal(), Some(&chain.chain().to_vec()), "mode {i}");
        assert_eq!(
            chain.strides,
            oracle.strides(&chain.chain(), &g),
            "mode {i}"
        );
    }
}
