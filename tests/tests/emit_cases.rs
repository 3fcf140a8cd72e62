//! The emission fields of the `decide` and `restrict` cases of `seed000_cases.json` (spec: Code emission): the composite as written and the emitted program, rendered in the case files'
//! Python syntax, with their division and modulus counts; the form a restriction is emitted in;
//! and, for every case, each program evaluated at every coordinate against the map, and the
//! emitted cost against the cost as written. Maps are built from their JSON with [`json_map`];
//! every expected text and count is read from the case file.

use layout_core::{Map, Program, ProgramForm, emit, written};
use layout_tests::{int, json_map, seed_cases};
use serde_json::Value;

fn name(c: &Value) -> &str {
    c["name"].as_str().unwrap_or("?")
}

fn text(c: &Value, key: &str) -> String {
    c[key]
        .as_str()
        .unwrap_or_else(|| panic!("{}: no text {key}", name(c)))
        .to_string()
}

fn count(c: &Value, key: &str) -> usize {
    usize::try_from(int(&c[key])).unwrap_or_else(|_| panic!("{}: bad {key}", name(c)))
}

/// Checks `p` against `map` at every flat index of the map's domain: the program's coordinates
/// are the flat index unflattened by `p.sizes` (last fastest), which is the same order whether
/// they are the domain leaves or its top-level modes.
fn check_values(what: &str, p: &Program, map: &Map) {
    let total: i64 = p.sizes.iter().product();
    assert_eq!(total, map.size(), "{what}: the program's coordinates");
    let mut c = vec![0i64; p.sizes.len()];
    for i in 0..total {
        let mut rest = i;
        for (x, &n) in c.iter_mut().zip(&p.sizes).rev() {
            *x = rest % n;
            rest /= n;
        }
        let expected = map.eval_index(i).expect("in range");
        assert_eq!(p.eval(&c), Ok(expected), "{what}: at {c:?} (flat {i})");
    }
}

#[test]
fn decide_cases_as_written_and_emitted() {
    let cases = seed_cases("decide");
    assert!(!cases.is_empty());
    let mut emitted_checked = 0;
    for c in &cases {
        let n = name(c);
        let map = json_map(&c["map"]).unwrap_or_else(|e| panic!("{n}: {e}"));
        let by_mode = c["by_mode"].as_bool().expect("by_mode");

        let w = written(&map, by_mode);
        assert_eq!(w.to_python(), text(c, "written_program"), "{n}: as written");
        assert_eq!(
            w.div_mod(),
            (count(c, "written_div"), count(c, "written_mod")),
            "{n}: divisions and moduli as written"
        );
        check_values(&format!("{n} (as written)"), &w, &map);

        let e = emit(&map, by_mode).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!(e.written_cost, w.cost(), "{n}: the cost as written");
        assert!(
            e.program.cost() <= e.written_cost,
            "{n}: emitted cost {} > written cost {}",
            e.program.cost(),
            e.written_cost
        );
        check_values(&format!("{n} (emitted)"), &e.program, &map);
        // The other choice of coordinates emits a correct program too.
        let other = emit(&map, !by_mode).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert!(other.program.cost() <= other.written_cost, "{n}: !by_mode");
        check_values(&format!("{n} (emitted, !by_mode)"), &other.program, &map);
        check_values(
            &format!("{n} (as written, !by_mode)"),
            &written(&map, !by_mode),
            &map,
        );
        if c.get("emitted_program").is_some() {
            assert_eq!(e.program.to_python(), text(c, "emitted_program"), "{n}");
            assert_eq!(
                e.program.div_mod(),
                (count(c, "emitted_div"), count(c, "emitted_mod")),
                "{n}: emitted divisions and moduli"
            );
            emitted_checked += 1;
        }
    }
    assert!(emitted_checked > 0, "no case has an emitted program");
}

#[test]
fn restrict_cases_emitted() {
    let cases = seed_cases("restrict");
    assert!(!cases.is_empty());
    for c in &cases {
        let n = name(c);
        let map = json_map(&c["map"]).unwrap_or_else(|e| panic!("{n}: {e}"));
        let e = emit(&map, false).unwrap_or_else(|e| panic!("{n}: {e}"));
        let mut p = e.program.clone();
        let names: Vec<String> = c["names"]
            .as_array()
            .unwrap_or_else(|| panic!("{n}: no names"))
            .iter()
            .map(|v| v.as_str().expect("a name").to_string())
            .collect();
        assert_eq!(names.len(), p.names.len(), "{n}: number of coordinates");
        p.names = names;
        assert_eq!(p.to_python(), text(c, "program"), "{n}");
        let form = match c["emitted_as"].as_str() {
            Some("layout") => ProgramForm::Layout,
            Some("composite") => ProgramForm::Written,
            other => panic!("{n}: emitted_as {other:?}"),
        };
        assert_eq!(e.form, form, "{n}: form");
        if form == ProgramForm::Layout {
            assert_eq!(p.result.constant, int(&c["const"]), "{n}: the constant");
        }
        assert_eq!(
            p.div_mod(),
            (count(c, "div"), count(c, "mod")),
            "{n}: divisions and moduli"
        );
        assert!(
            e.program.cost() <= e.written_cost,
            "{n}: emitted costs more"
        );
        check_values(&format!("{n} (emitted)"), &p, &map);
        check_values(&format!("{n} (as written)"), &written(&map, false), &map);
    }
}
