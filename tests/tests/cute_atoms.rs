//! The corpus's `layout_eval`, `mma_atom`, `copy_atom`, `smem_atom` and `swizzle` cases,
//! evaluated through `Layout::from_cute`, and the classification of every atom's TV layout.

use layout_core::{
    Annotated, Layout, Map, Space, Stride, Swizzle, SwizzleUnit, check_alias_free,
    is_dense_bijection,
};
use layout_tests::{CuteText, corpus, int, ints, sample_indices};
use serde_json::Value;

fn assert_offsets(what: &str, l: &Layout, offsets: &[i64]) {
    assert_eq!(offsets.len() as i64, l.size(), "{what}: size");
    for (i, &o) in offsets.iter().enumerate() {
        assert_eq!(l.eval_index(i as i64), Ok(o), "{what} at {i}");
    }
}

#[test]
fn layout_eval_cases() {
    let cases = corpus("layout_eval");
    assert!(!cases.is_empty());
    for c in &cases {
        let text = c["inputs"]["layout"].as_str().expect("layout");
        let l = Layout::from_cute(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let offsets = ints(&c["expected"]["offsets"]).expect("offsets");
        assert_offsets(&format!("{} `{text}`", c["id"]), &l, &offsets);
        assert_eq!(
            l.to_cute().to_string(),
            Layout::from_cute(c["expected"]["result"].as_str().expect("result"))
                .expect("valid")
                .to_cute()
                .to_string()
        );
    }
    println!("{} layout_eval cases", cases.len());
}

/// Brute force: the values over the whole domain are exactly a permutation of `0..size`.
fn brute_permutation(oracle: &CuteText) -> bool {
    let size = oracle.size();
    let mut seen = vec![false; usize::try_from(size).expect("small")];
    for i in 0..size {
        let v = oracle.eval(i);
        if !(0..size).contains(&v) || seen[v as usize] {
            return false;
        }
        seen[v as usize] = true;
    }
    true
}

/// Checks one TV layout of an atom and returns its class for the table.
fn check_atom_layout(what: &str, text: &str, offsets: Option<Vec<i64>>) -> &'static str {
    let oracle = CuteText::parse(text).unwrap_or_else(|| panic!("{what}: `{text}`"));
    let l = Layout::from_cute(text).unwrap_or_else(|e| panic!("{what}: `{text}`: {e}"));
    match offsets {
        Some(offs) => {
            for (i, &o) in offs.iter().enumerate() {
                assert_eq!(oracle.eval(i as i64), o, "{what}: oracle vs corpus at {i}");
            }
            assert_offsets(what, &l, &offs);
        }
        // The corpus omits offsets above 16384 coordinates: compare with the oracle.
        None => {
            for i in sample_indices(l.size(), 1 << 14) {
                assert_eq!(l.eval_index(i), Ok(oracle.eval(i)), "{what} at {i}");
            }
        }
    }
    // A CuTe stride 0 on a mode of size > 1 is the broadcast `_`, leaf for leaf.
    let strides: Vec<Stride> = l.modes().iter().map(|m| m.stride).collect();
    let expected: Vec<Stride> = oracle
        .to_flat()
        .modes
        .iter()
        .map(|m| m.1.map_or(Stride::Broadcast, Stride::Int))
        .collect();
    assert_eq!(strides, expected, "{what}: `{text}`");
    assert_eq!(l.is_broadcast(), oracle.has_broadcast(), "{what}: `{text}`");

    let dense = brute_permutation(&oracle);
    assert_eq!(is_dense_bijection(&l), dense, "{what}: `{text}`");
    if l.is_broadcast() {
        assert!(!dense);
        "broadcast"
    } else if dense {
        "dense"
    } else {
        "neither"
    }
}

fn check_atoms(op: &str, keys: &[&str]) -> (u32, u32) {
    let cases = corpus(op);
    assert!(!cases.is_empty());
    let (mut dense, mut broadcast) = (0, 0);
    println!("{op}:");
    for c in &cases {
        let name = c["inputs"]["name"].as_str().expect("name");
        let Value::Object(expected) = &c["expected"] else {
            panic!("{name}: expected")
        };
        // Every layout of the atom has an `<key>_offsets` entry, and nothing else is expected.
        let mut got: Vec<&str> = expected
            .keys()
            .map(|k| k.strip_suffix("_offsets").expect("only offsets"))
            .collect();
        got.sort_unstable();
        let mut want = keys.to_vec();
        want.sort_unstable();
        assert_eq!(got, want, "{name}");
        let mut row = Vec::new();
        for k in keys {
            let text = c["inputs"][*k].as_str().expect("layout text");
            let class = check_atom_layout(
                &format!("{name}.{k}"),
                text,
                ints(&expected[&format!("{k}_offsets")]),
            );
            match class {
                "dense" => dense += 1,
                "broadcast" => broadcast += 1,
                _ => {}
            }
            row.push(format!("{k}={class}"));
        }
        println!("  {name:40} {}", row.join(" "));
    }
    (dense, broadcast)
}

#[test]
fn mma_atoms() {
    let (dense, broadcast) = check_atoms("mma_atom", &["ThrID", "A", "B", "C"]);
    println!("mma atoms: {dense} dense TV layouts, {broadcast} broadcast");
    assert!(dense > 0 && broadcast > 0);
}

#[test]
fn copy_atoms() {
    let (dense, broadcast) = check_atoms("copy_atom", &["ThrID", "Src", "Dst", "Ref"]);
    println!("copy atoms: {dense} dense TV layouts, {broadcast} broadcast");
    assert!(dense > 0 && broadcast > 0);
}

/// GMMA shared-memory atoms: the inner layout's offsets, and for typed atoms the element
/// offsets through the header's byte swizzle moved to elements (`M − log2(bytes)`).
#[test]
fn smem_atoms() {
    let cases = corpus("smem_atom");
    assert!(!cases.is_empty());
    let mut swizzled = 0;
    for c in &cases {
        let name = c["inputs"]["name"].as_str().expect("name");
        let text = c["inputs"]["layout"].as_str().expect("layout");
        let l = Layout::from_cute(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_offsets(
            name,
            &l,
            &ints(&c["expected"]["layout_offsets"]).expect("offsets"),
        );
        assert_eq!(check_alias_free(&l), Ok(()), "{name}");
        let Some(elems) = ints(&c["expected"]["element_offsets"]) else {
            continue;
        };
        let bits = int(&c["inputs"]["element_bits"]);
        let bytes = bits / 8;
        assert!(bytes >= 1 && (bytes as u64).is_power_of_two(), "{name}");
        let sw = ints(&c["inputs"]["swizzle"]).expect("swizzle");
        // The corpus's swizzles act on byte addresses.
        let elem_bits = u32::try_from(bits).expect("element width");
        let s = Swizzle::from_cute(sw[0], sw[1], sw[2], SwizzleUnit::Bytes { elem_bits })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let map = Map::from(
            Annotated::new(l.clone(), Space::Logical, Space::Physical).expect("alias-free"),
        )
        .swizzle(s)
        .expect("physical");
        assert_eq!(elems.len() as i64, l.size());
        let mut sorted = elems.clone();
        sorted.sort_unstable();
        assert!(
            sorted.iter().copied().eq(0..l.size()),
            "{name}: a permutation"
        );
        for (i, &e) in elems.iter().enumerate() {
            assert_eq!(map.eval_index(i as i64), Ok(e), "{name} at {i}");
        }
        swizzled += 1;
    }
    println!(
        "{} smem atoms, {swizzled} with element offsets",
        cases.len()
    );
    assert!(swizzled > 0);
}

/// CuTe swizzle cases: offsets are `outer_swizzle(outer(Sw(layout(i))))`, where `outer` and
/// `outer_swizzle` are optional.
#[test]
fn swizzle_cases() {
    let swizzle = |v: &Value| {
        ints(v).map(|sw| {
            let s = Swizzle::from_cute(sw[0], sw[1], sw[2], SwizzleUnit::Elements)
                .unwrap_or_else(|e| panic!("{sw:?}: {e}"));
            assert_eq!(s.to_cute(), (sw[0], sw[1], sw[2]));
            s
        })
    };
    let cases = corpus("swizzle");
    assert!(!cases.is_empty());
    for c in &cases {
        let id = c["id"].as_str().expect("id");
        let inputs = &c["inputs"];
        let inner = Layout::from_cute(inputs["layout"].as_str().expect("layout")).expect("valid");
        let outer = inputs["outer"]
            .as_str()
            .map(|t| Layout::from_cute(t).expect("valid"));
        let s = swizzle(&inputs["swizzle"]).expect("swizzle");
        let outer_s = swizzle(&inputs["outer_swizzle"]);
        let offsets = ints(&c["expected"]["offsets"]).expect("offsets");
        assert_eq!(offsets.len() as i64, inner.size(), "{id}");
        for (i, &o) in offsets.iter().enumerate() {
            let mut x = s.apply(inner.eval_index(i as i64).expect("in range"));
            if let Some(l) = &outer {
                x = l.eval_index(x).expect("in range");
            }
            if let Some(t) = outer_s {
                x = t.apply(x);
            }
            assert_eq!(x, o, "{id} at {i}");
        }
    }
    println!("{} swizzle cases", cases.len());
}
