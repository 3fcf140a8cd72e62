//! Emitted code against evaluation: for random maps (layouts, compositions nested either way,
//! swizzles, restrictions), the program `emit` chooses, the program as written and the layout
//! form all evaluate as the map's model at every coordinate; a range check that passes means
//! every value fits the index type; the renderers never panic.

use layout_core::{Error, IntType, emit, written};

use super::algebra::{check_decision, map_values, program_values};
use super::bytes::Bytes;
use super::maps::{self, touch};

/// Reads a map from the bytes and checks its emitted programs.
pub fn check(data: &[u8]) {
    let mut b = Bytes::new(data);
    let by_mode = b.chance(100);
    let Some((m, model)) = maps::physical_up_to(&mut b, 4, 128) else {
        return;
    };
    super::debug(|| format!("map {m:?}\nmodel {model:?}, by_mode {by_mode}"));
    map_values("map", &m, &model);
    let w = written(&m, by_mode);
    program_values("written", &w, &model);
    let e = match emit(&m, by_mode) {
        Ok(e) => e,
        Err(e) => {
            touch(&e);
            assert!(model.size() > 1 << 24, "emit({m:?}) refused: {e}");
            return;
        }
    };
    assert!(
        e.program.cost() <= e.written_cost,
        "emitted cost above the written one"
    );
    assert_eq!(e.written_cost, w.cost(), "written cost");
    check_decision(&m, &model, by_mode, &e.decision);
    program_values("emitted", &e.program, &model);
    let size = model.size();
    let values: Vec<i128> = if size <= i128::from(super::BRUTE_LIMIT) {
        (0..size).filter_map(|i| model.eval(i)).collect()
    } else {
        Vec::new()
    };
    let ty = [IntType::I32, IntType::I64, IntType::U32, IntType::Usize][usize::from(b.below(4))];
    let render = b.chance(32);
    {
        match e.program.check_range(ty) {
            Ok(()) => {
                let (lo, hi) = ty.range();
                for &v in &values {
                    assert!(
                        (i128::from(lo)..=i128::from(hi)).contains(&v),
                        "{m:?}: range check for {ty:?} passed, value {v}"
                    );
                }
                if render {
                    let _ = e.program.to_rust("f", ty).map_err(|e| touch(&e));
                    let _ = e
                        .program
                        .to_c("f", ty, b.chance(128))
                        .map_err(|e| touch(&e));
                }
            }
            Err(err) => {
                touch(&err);
                if let Error::IndexTypeRange { .. } = err {
                    assert!(!values.is_empty() || size > i128::from(super::BRUTE_LIMIT));
                }
            }
        }
    }
    if render {
        let _ = e.program.to_python();
    }
}
