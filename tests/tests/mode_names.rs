//! Two top-level modes of one layout never share a name: every way names reach a layout (the
//! text, `with_names`, an operation that carries its operands' names) refuses a repeated one,
//! so selecting a mode by name always picks exactly one.

use layout_core::{Error, Layout};

/// Every pair of positions among `rank` top-level modes, named alike, in text: refused with
/// both positions; distinct names pass.
#[test]
fn a_repeated_name_is_refused_in_text() {
    for rank in 2..=4usize {
        for second in 1..rank {
            for first in 0..second {
                let names: Vec<String> = (0..rank)
                    .map(|i| {
                        if i == first || i == second {
                            "a".to_string()
                        } else {
                            format!("m{i}")
                        }
                    })
                    .collect();
                // Nested entries too: each mode `(2,1)` in the nested variant.
                for nested in [false, true] {
                    let shape: Vec<String> = names
                        .iter()
                        .map(|n| {
                            if nested {
                                format!("{n}: (2,1)")
                            } else {
                                format!("{n}: 2")
                            }
                        })
                        .collect();
                    let mut w = 1i64;
                    let mut strides = vec![String::new(); rank];
                    for i in (0..rank).rev() {
                        strides[i] = if nested {
                            format!("({w},1)")
                        } else {
                            w.to_string()
                        };
                        w *= 2;
                    }
                    let text = format!("({}):({})", shape.join(", "), strides.join(","));
                    assert_eq!(
                        text.parse::<Layout>(),
                        Err(Error::DuplicateName { first, second }),
                        "{text}"
                    );
                    let unique = text.replacen("a:", "b:", 1);
                    let l: Layout = unique.parse().unwrap_or_else(|e| panic!("{unique}: {e:?}"));
                    assert_eq!(l.names().len(), rank);
                }
                // `with_names` on an unnamed layout.
                let plain: Layout = format!(
                    "({}):({})",
                    vec!["2"; rank].join(","),
                    vec!["1"; rank].join(",")
                )
                .parse()
                .expect("layout");
                let named: Vec<Option<String>> = names.iter().cloned().map(Some).collect();
                assert_eq!(
                    plain.with_names(named),
                    Err(Error::DuplicateName { first, second })
                );
            }
        }
    }
}

/// Operations that carry their operands' names: a repeat names its two modes after its
/// operands' sole modes, a modewise repeat each mode after either operand's.
#[test]
fn operations_refuse_a_repeated_name() {
    let p = |t: &str| t.parse::<Layout>().expect("layout");
    assert_eq!(
        layout_core::repeat(&p("(x: 8):(1)"), &p("(x: 4):(1)")),
        Err(Error::DuplicateName {
            first: 0,
            second: 1
        })
    );
    assert!(layout_core::repeat(&p("(x: 8):(1)"), &p("(y: 4):(1)")).is_ok());
    assert_eq!(
        layout_core::repeat_modewise(&p("(a: 2, 4):(4,1)"), &p("(2, a: 2):(2,1)")),
        Err(Error::DuplicateName {
            first: 0,
            second: 1
        })
    );
    assert!(layout_core::repeat_modewise(&p("(a: 2, 4):(4,1)"), &p("(2, b: 2):(2,1)")).is_ok());
}

/// The rule's name and message.
#[test]
fn the_rule_is_named() {
    let e = "(a: 2, a: 3):(3,1)".parse::<Layout>().expect_err("refused");
    assert_eq!(e.rule(), "mode-names");
    assert_eq!(e.to_string(), "modes 0 and 1 have the same name");
}
