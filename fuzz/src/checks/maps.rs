//! Random maps (layouts, compositions nested either way, swizzles, restrictions) built through
//! `layout-core`'s API, each with its [`Model`]: what it should compute.

use layout_core::{Annotated, Error, Layout, Map, Space, Swizzle, Tree, compose};

use super::bytes::{Bytes, leaves};
use super::model::{Lay, Model};

/// Renders an error (its display, rule and help must never panic).
pub fn touch(e: &Error) {
    let _ = (e.to_string(), e.rule(), e.help(), e.mode());
}

/// A layout read from the bytes (dense strides sometimes); `None` when `Layout::new` refuses it.
pub fn layout(b: &mut Bytes) -> Option<Layout> {
    let shape = b.shape(2);
    let stride = if b.chance(64) {
        b.dense_strides(&shape)
    } else {
        b.strides_for(&shape)
    };
    match Layout::new(shape, stride) {
        // Keep the tabulations cheap (far past the decision limit the refusal is at once).
        Ok(l) if l.size() > 1 << 9 && l.size() <= 1 << 40 => None,
        Ok(l) => Some(l),
        Err(e) => {
            touch(&e);
            None
        }
    }
}

/// The prime factors of `n ≥ 1`.
fn primes(mut n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            out.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// A shape of size `n`: its prime factors shuffled and grouped into leaves, sometimes nested.
pub fn shape_of_size(b: &mut Bytes, n: i64) -> Tree<i64> {
    let mut ps = primes(n);
    for i in (1..ps.len()).rev() {
        let j = usize::from(b.byte()) % (i + 1);
        ps.swap(i, j);
    }
    let mut leaves: Vec<i64> = Vec::new();
    for p in ps {
        match leaves.last_mut() {
            Some(last) if b.chance(100) => *last *= p,
            _ => leaves.push(p),
        }
    }
    if leaves.is_empty() {
        leaves.push(1);
    }
    if leaves.len() >= 3 && b.chance(80) {
        let tail = leaves.split_off(leaves.len() - 2);
        let mut v: Vec<Tree<i64>> = leaves.into_iter().map(Tree::Leaf).collect();
        v.push(Tree::Tuple(tail.into_iter().map(Tree::Leaf).collect()));
        return Tree::Tuple(v);
    }
    if leaves.len() == 1 && b.chance(128) {
        return Tree::Leaf(leaves[0]);
    }
    Tree::Tuple(leaves.into_iter().map(Tree::Leaf).collect())
}

/// A map into physical space and its model; `None` when the product refused a step, or when
/// checking it would enumerate too many positions for a fuzz run (between 2^9 and 2^40;
/// past 2^40 every enumeration refuses at once).
pub fn physical(b: &mut Bytes, depth: u8) -> Option<(Map, Model)> {
    physical_up_to(b, depth, 1 << 9)
}

/// [`physical`] with maps of at most `max` positions (or past 2^40).
pub fn physical_up_to(b: &mut Bytes, depth: u8, max: i128) -> Option<(Map, Model)> {
    let (m, model) = physical_any(b, depth)?;
    if (max + 1..=1 << 40).contains(&model.size()) {
        return None;
    }
    Some((m, model))
}

fn physical_any(b: &mut Bytes, depth: u8) -> Option<(Map, Model)> {
    let choice = if depth == 0 { 0 } else { b.below(6) };
    match choice {
        1 | 5 => {
            let (left, lm) = physical(b, depth - 1)?;
            let n = left.size();
            if n > 1 << 16 {
                return None;
            }
            let (right, rm) = logical(b, n, depth - 1)?;
            let m = compose(&left, &right).map_err(|e| touch(&e)).ok()?;
            Some((m, Model::Compose(Box::new(lm), Box::new(rm))))
        }
        2 => {
            let (inner, im) = physical(b, depth - 1)?;
            let (bits, src, dst) = (b.below(4), b.below(10), b.below(10));
            let sw = Swizzle::new(u32::from(bits), u32::from(src), u32::from(dst))
                .map_err(|e| touch(&e))
                .ok()?;
            let m = inner.swizzle(sw).map_err(|e| touch(&e)).ok()?;
            Some((
                m,
                Model::Swizzle {
                    b: u32::from(bits),
                    src: u32::from(src),
                    dst: u32::from(dst),
                    inner: Box::new(im),
                },
            ))
        }
        3 => {
            let (inner, im) = physical(b, depth - 1)?;
            let entries = im.entries();
            let k = usize::from(b.below(3));
            // Entry numbers count among the entries free before the call; each at most once.
            let mut call: Vec<(usize, i64)> = Vec::new();
            let mut valid = true;
            for _ in 0..k {
                let e = usize::from(b.byte()) % (entries.len() + 1);
                let n = entries.get(e).copied().unwrap_or(1);
                let v = if b.chance(16) {
                    b.edge()
                } else {
                    i64::from(b.byte()) % n.max(1)
                };
                valid &= e < entries.len() && (0..n).contains(&v) && !call.iter().any(|c| c.0 == e);
                call.push((e, v));
            }
            match inner.restrict(&call) {
                Ok(m) => {
                    assert!(valid, "restrict({call:?}) of entries {entries:?} accepted");
                    Some((
                        m,
                        Model::Restrict {
                            fixed: call,
                            inner: Box::new(im),
                        },
                    ))
                }
                Err(e) => {
                    touch(&e);
                    assert!(
                        !valid,
                        "restrict({call:?}) of entries {entries:?} refused: {e}"
                    );
                    None
                }
            }
        }
        _ => {
            let l = layout(b)?;
            let a = Annotated::new(l.clone(), Space::Logical, Space::Physical)
                .map_err(|e| touch(&e))
                .ok()?;
            Some((Map::from(a), Model::Layout(Lay::of(&l))))
        }
    }
}

/// A dense map into logical space of size `n`, its domain logical or thread-value.
pub fn logical(b: &mut Bytes, n: i64, depth: u8) -> Option<(Map, Model)> {
    if depth > 0 && b.chance(80) {
        // compose(T, I): T logical -> logical, I anything -> logical.
        let (t, tm) = logical_from(b, n, depth - 1, Space::Logical)?;
        let (i, im) = logical(b, n, depth - 1)?;
        let m = compose(&t, &i).map_err(|e| touch(&e)).ok()?;
        return Some((m, Model::Compose(Box::new(tm), Box::new(im))));
    }
    let dom = if b.chance(128) {
        Space::Logical
    } else {
        Space::ThreadValue
    };
    logical_from(b, n, 0, dom)
}

/// A dense layout of size `n` into logical space, from `dom` (no nesting when `depth` is 0).
fn logical_from(b: &mut Bytes, n: i64, depth: u8, dom: Space) -> Option<(Map, Model)> {
    if depth > 0 && dom == Space::Logical && b.chance(60) {
        let (t, tm) = logical_from(b, n, depth - 1, Space::Logical)?;
        let (i, im) = logical_from(b, n, depth - 1, Space::Logical)?;
        let m = compose(&t, &i).map_err(|e| touch(&e)).ok()?;
        return Some((m, Model::Compose(Box::new(tm), Box::new(im))));
    }
    let shape = shape_of_size(b, n);
    let stride = b.dense_strides(&shape);
    let l = Layout::new(shape, stride).map_err(|e| touch(&e)).ok()?;
    assert_eq!(leaves(l.shape()).iter().product::<i64>(), n);
    let model = Lay::of(&l);
    match Annotated::new(l.clone(), dom, Space::Logical) {
        Ok(a) => Some((Map::from(a), Model::Layout(model))),
        Err(e) => panic!("{l} is a dense bijection by construction, refused: {e}"),
    }
}
