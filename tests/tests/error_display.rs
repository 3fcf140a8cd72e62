//! Errors display their numbers and offer help.

use layout_core::{
    Annotated, Error, Layout, Map, ModePath, Space, Swizzle, check_alias_free,
    check_dense_bijection, compose,
};
use layout_tests::{json_layout, seed_cases};

fn assert_mentions(e: &Error, numbers: &[i64]) {
    let text = e.to_string();
    for n in numbers {
        let found = text
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .any(|w| w == n.to_string());
        assert!(found, "`{text}` does not show {n}");
    }
    let help = e.help().unwrap_or_else(|| panic!("no help for {e:?}"));
    assert!(!help.to_string().is_empty(), "{e:?}");
}

#[test]
fn not_dense_shows_expected_and_found() {
    // Every non-dense layout of the Lemma 1 cases that can be built.
    let mut seen = 0;
    for c in seed_cases("lemma1") {
        let Ok(l) = json_layout(&c["layout"]) else {
            continue;
        };
        match check_dense_bijection(&l) {
            Err(
                e @ Error::NotDense {
                    mode,
                    expected,
                    found,
                },
            ) => {
                assert_mentions(&e, &[expected, found]);
                // The mode named really has the stride found.
                let m = l
                    .modes()
                    .into_iter()
                    .find(|m| m.path == mode)
                    .expect("a mode");
                assert_eq!(m.stride.value(), found);
                assert!(e.to_string().contains(&mode.to_string()), "{e}");
                assert!(
                    e.help()
                        .expect("help")
                        .to_string()
                        .contains(&expected.to_string())
                );
                seen += 1;
            }
            Err(e @ Error::BroadcastNotDense { size, .. }) => {
                assert_mentions(&e, &[size]);
                seen += 1;
            }
            Err(e) => panic!("{l}: {e:?}"),
            Ok(()) => {}
        }
    }
    assert!(seen >= 3);
}

#[test]
fn aliasing_shows_both_indices_and_the_offset() {
    let l: Layout = "(4,8):(2,1)".parse().expect("valid");
    let e = check_alias_free(&l).expect_err("rows overlap");
    let Error::Aliasing {
        first,
        second,
        offset,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(l.eval_index(first), Ok(offset));
    assert_eq!(l.eval_index(second), Ok(offset));
    assert_mentions(&e, &[first, second, offset]);
    assert_eq!(e.rule(), "aliasing");
}

#[test]
fn zero_stride_names_the_mode_and_size() {
    let e = "(4,(3,5)):(1,(0,3))"
        .parse::<Layout>()
        .expect_err("zero stride");
    let path = ModePath::from_indices(&[1, 0]).expect("path");
    assert_eq!(
        e,
        Error::ZeroStride {
            mode: path,
            size: 3
        }
    );
    assert!(e.to_string().contains(&path.to_string()), "{e}");
    assert_mentions(&e, &[3]);
    assert!(e.help().expect("help").to_string().contains('_'));
}

#[test]
fn composition_and_swizzle_errors() {
    let left = Map::from(
        Annotated::new(
            "(4,8):(8,1)".parse().expect("valid"),
            Space::Logical,
            Space::Physical,
        )
        .expect("valid"),
    );
    let right = Map::from(
        Annotated::new(
            "(4,4):(4,1)".parse().expect("valid"),
            Space::ThreadValue,
            Space::Logical,
        )
        .expect("valid"),
    );
    let e = compose(&left, &right).expect_err("sizes differ");
    assert_eq!(
        e,
        Error::SizeMismatch {
            left: left.size(),
            right: right.size()
        }
    );
    assert_mentions(&e, &[left.size(), right.size()]);

    let (b, src, dst) = (2u32, 3u32, 4u32);
    let e = Swizzle::new(b, src, dst).expect_err("fields overlap");
    // Both bit ranges in the message, b in the help.
    let bits = [src, src + b, dst, dst + b].map(i64::from);
    assert_mentions(&e, &bits);
    assert!(
        e.help()
            .expect("help")
            .to_string()
            .contains(&format!("b = {b}"))
    );

    let e = "(4,8):(8,1".parse::<Layout>().expect_err("unclosed");
    let Error::Parse { column, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(column, "(4,8):(8,1".len());
    assert_mentions(&e, &[column as i64]);

    let e = Layout::from_cute("(2,2):(1,-4)")
        .expect("valid")
        .cosize()
        .expect_err("negative offset");
    assert_mentions(&e, &[-4]);
}
