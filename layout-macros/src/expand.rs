//! Emits the typed value: a `Static<Form, Spec<..>>` (wrapped in `Swizzled` when swizzled).
//! Emits little, since compiling the output dominates the cost of a `layout!`.

use layout_core::{
    Decision, Layout, Map, Program, Space, Stride, Sum, Term, Tree, Var, decide, emit, layout_form,
};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::ast::{IndexTy, Input};
use crate::parse;
use crate::valid::{self, Checked};

/// The whole macro: never panics; every failure is a spanned `compile_error!`.
pub fn layout(tokens: TokenStream) -> TokenStream {
    let inv = match parse::invocation(tokens) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let k = &inv.krate;
    match inv.input {
        Input::Expr(d) => {
            let (checked, errs) = valid::check(&d);
            let expr = checked.map_or_else(|| quote!(::core::unreachable!()), |c| typed(k, &c).1);
            if errs.is_empty() {
                expr
            } else {
                let errs = errors(errs);
                quote!({ #errs #expr })
            }
        }
        Input::Algebra(a) => crate::algebra::expand(k, inv.rest, *a),
        Input::Items(items) => {
            let mut out = TokenStream::new();
            for it in items {
                let (checked, errs) = valid::check(&it.decl);
                out.extend(errors(errs));
                if !it.decl.layout.runtime.is_empty() {
                    out.extend(
                        syn::Error::new(
                            it.name.span(),
                            "a layout with run-time `{expr}` leaves is a value, not a constant\nhelp: use the expression form, `let g = layout!(..)?;`",
                        )
                        .to_compile_error(),
                    );
                    continue;
                }
                if let Some(c) = checked {
                    let (ty, expr) = typed(k, &c);
                    let (attrs, vis, name) = (&it.attrs, &it.vis, &it.name);
                    let def = quote::format_ident!("__layout_def_{}", name);
                    let decl = &it.tokens;
                    // The definition macro is re-exported under the item's own name, in the macro
                    // namespace only, so `use m::SMEM;` brings it along with the type and the
                    // constant; a `pub` item's is visible crate-wide.
                    let def_vis = match vis {
                        syn::Visibility::Inherited => quote!(),
                        _ => quote!(pub(crate)),
                    };
                    out.extend(quote! {
                        #(#attrs)*
                        #[allow(non_camel_case_types)]
                        #vis type #name = #ty;
                        #(#attrs)*
                        #vis const #name: #name = #expr;
                        #[doc(hidden)]
                        #[allow(unused_macros)]
                        macro_rules! #def {
                            ({ $($cb:tt)* } { ( $($k:tt)* ) $($rest:tt)* }) => {
                                $($cb)*! { $($k)* ; [#name = #decl] $($rest)* }
                            };
                        }
                        #[allow(unused_imports)]
                        #def_vis use #def as #name;
                    });
                }
            }
            out
        }
    }
}

fn errors(errs: Vec<syn::Error>) -> TokenStream {
    errs.into_iter().map(|e| e.to_compile_error()).collect()
}

fn form(k: &TokenStream, shape: &Tree<i64>, stride: &Tree<Stride>) -> TokenStream {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(d)) => {
            let n = Literal::usize_unsuffixed(*n as usize);
            match d {
                Stride::Broadcast => quote!(#k::Bcast<#n>),
                Stride::Int(d) if *d < 0 => {
                    let d = Literal::i64_unsuffixed(-d);
                    quote!(#k::Dim<#n, { -#d }>)
                }
                Stride::Int(d) => {
                    let d = Literal::i64_unsuffixed(*d);
                    quote!(#k::Dim<#n, #d>)
                }
            }
        }
        // A rank-1 tuple is its entry (SPEC §1).
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == 1 && b.len() == 1 => form(k, &a[0], &b[0]),
        (Tree::Tuple(a), Tree::Tuple(b)) => {
            let parts = a.iter().zip(b).map(|(s, d)| form(k, s, d));
            quote!((#(#parts,)*))
        }
        // Profiles were checked equal by `layout-core`.
        _ => quote!(()),
    }
}

fn index_type(i: IndexTy) -> TokenStream {
    match i {
        IndexTy::I32 => quote!(::core::primitive::i32),
        IndexTy::I64 => quote!(::core::primitive::i64),
        IndexTy::U32 => quote!(::core::primitive::u32),
        IndexTy::Usize => quote!(::core::primitive::usize),
    }
}

fn space(k: &TokenStream, s: Space) -> TokenStream {
    match s {
        Space::Logical => quote!(#k::LogicalSpace),
        Space::ThreadValue => quote!(#k::ThreadValueSpace),
        Space::Physical => quote!(#k::PhysicalSpace),
    }
}

fn tile(k: &TokenStream, t: Option<&Vec<i64>>) -> TokenStream {
    let Some(t) = t else {
        return quote!(#k::NoTile);
    };
    let ext = t.iter().map(|e| Literal::usize_unsuffixed(*e as usize));
    let name = quote::format_ident!("Tile{}", t.len());
    quote!(#k::#name<#(#ext),*>)
}

/// The value of a declaration with run-time leaves: `Result<Dynamic<..>, layout_core::Error>`,
/// checked when it is built (SPEC §11).
fn dynamic(k: &TokenStream, c: &Checked) -> TokenStream {
    let f = form(k, c.layout.shape(), c.layout.stride());
    let (dom, cod) = (space(k, c.domain), space(k, c.codomain));
    let idx = index_type(c.index);
    let modes = c.layout.modes();
    let sizes = modes.iter().zip(&c.runtime).map(|(m, (rs, _))| match rs {
        Some(e) => quote!(#k::__private::leaf(#e)),
        None => {
            let n = Literal::i64_suffixed(m.size);
            quote!(#k::__private::leaf(#n))
        }
    });
    let strides = modes
        .iter()
        .zip(&c.runtime)
        .map(|(m, (_, rd))| match (rd, m.stride) {
            (Some(e), _) => quote!(::core::option::Option::Some(#k::__private::leaf(#e))),
            (None, Stride::Int(d)) => {
                let d = Literal::i64_suffixed(d);
                quote!(::core::option::Option::Some(#k::__private::leaf(#d)))
            }
            (None, Stride::Broadcast) => quote!(::core::option::Option::None),
        });
    quote!(#k::Dynamic::<#f, #dom, #cod, #idx>::__new(&[#(#sizes),*], &[#(#strides),*]))
}

/// The type and the value expression of a checked declaration.
fn typed(k: &TokenStream, c: &Checked) -> (TokenStream, TokenStream) {
    if !c.runtime.is_empty() {
        return (quote!(()), dynamic(k, c));
    }
    let f = form(k, c.layout.shape(), c.layout.stride());
    let (dom, cod) = (space(k, c.domain), space(k, c.codomain));
    let n = Literal::usize_unsuffixed(c.layout.size() as usize);
    let acc = if c.layout.is_broadcast() {
        quote!(#k::ReadOnly)
    } else {
        quote!(#k::Exclusive)
    };
    let (dt, ct) = (
        tile(k, c.domain_tile.as_ref()),
        tile(k, c.codomain_tile.as_ref()),
    );
    let idx = index_type(c.index);
    let ty = quote!(#k::Static<#f, #k::Spec<#dom, #cod, #k::Size<#n>, #acc, #dt, #ct, #idx>>);
    let expr = quote!(<#ty as #k::__private::New>::NEW);
    match c.swizzle {
        None => (ty, expr),
        Some(s) => {
            let (b, src, dst) = (
                Literal::u32_unsuffixed(s.bits()),
                Literal::u32_unsuffixed(s.src()),
                Literal::u32_unsuffixed(s.dst()),
            );
            let sty = quote!(#k::Swizzled<#ty, #b, #src, #dst>);
            let sexpr = quote!(<#sty as #k::__private::New>::NEW);
            (sty, sexpr)
        }
    }
}

/// Whether stores through the map are refused: a broadcast anywhere on its left chain.
fn read_only(m: &Map) -> bool {
    match m {
        Map::Layout(a) => a.layout().is_broadcast(),
        Map::Swizzled { inner, .. } | Map::Restricted { inner, .. } => read_only(inner),
        Map::Composite { left, .. } => read_only(left),
    }
}

/// The typed value of an evaluated algebra expression (SPEC §11): a `Static` layout when the
/// result is a layout (an operation's result, or a composite decided to be one, Theorem 1), a
/// swizzled `Static` when it is a swizzled layout, and otherwise a generated type whose
/// `offset` is the emitted program (SPEC §7). A run-time `restrict` value is a field of that
/// type; its constant part is computed once when the value is built.
pub fn typed_map(
    k: &TokenStream,
    map: &Map,
    index: IndexTy,
    runtime: &[(usize, TokenStream)],
) -> Result<TokenStream, layout_core::Error> {
    let checked = |layout: Layout, swizzle: Option<layout_core::Swizzle>| Checked {
        domain_tile: map.domain_tile().map(<[i64]>::to_vec),
        codomain_tile: if swizzle.is_some() {
            None
        } else {
            map.codomain_tile().map(<[i64]>::to_vec)
        },
        layout,
        domain: map.domain(),
        codomain: if map.is_swizzled() {
            Space::Physical
        } else {
            map.codomain()
        },
        swizzle,
        index,
        runtime: Vec::new(),
    };
    if runtime.is_empty() {
        match map {
            Map::Layout(a) => return Ok(typed(k, &checked(a.layout().clone(), None)).1),
            Map::Swizzled { swizzle, inner } => {
                if let Map::Layout(a) = inner.as_ref() {
                    return Ok(typed(k, &checked(a.layout().clone(), Some(*swizzle))).1);
                }
            }
            _ => {}
        }
        if !map.is_swizzled() && !map.is_restricted() {
            let d = decide(map, false)?;
            if let Some(l) = decided_layout(&map.domain_shape(), &d) {
                return Ok(typed(k, &checked(l, None)).1);
            }
        }
        let e = emit(map, false)?;
        return Ok(generated(k, map, index, &e.program, None));
    }
    let (entry, value) = &runtime[0];
    // Decide every slice at compile time (SPEC §5): equal layouts → constant + that layout.
    let size = entry_size(&map.domain_shape(), *entry);
    let mut common: Option<Program> = None;
    let mut agree = true;
    for v in 0..size {
        let slice = map.restrict(&[(*entry, v)])?;
        let d = decide(&slice, false)?;
        match layout_form(&Decision { constant: 0, ..d }) {
            Some(p) if common.as_ref().is_none_or(|c| *c == p) => common = Some(p),
            _ => {
                agree = false;
                break;
            }
        }
    }
    let full = emit(map, false)?.program;
    Ok(generated(
        k,
        map,
        index,
        if agree {
            common.as_ref().unwrap_or(&full)
        } else {
            &full
        },
        Some((*entry, value, agree, &full)),
    ))
}

fn entry_size(shape: &Tree<i64>, entry: usize) -> i64 {
    match shape {
        Tree::Tuple(v) => v.get(entry).map_or(1, |t| t.leaves().into_iter().product()),
        Tree::Leaf(n) => *n,
    }
}

/// The decided layout of a composite, within the typed API's limits (8 entries a tuple, 32
/// leaves).
fn decided_layout(shape: &Tree<i64>, d: &Decision) -> Option<Layout> {
    let l = d.coarsest_layout(shape)?;
    let ok = l.modes().len() <= 32 && max_rank(l.shape()) <= 8;
    ok.then_some(l)
}

fn max_rank(t: &Tree<i64>) -> usize {
    match t {
        Tree::Leaf(_) => 1,
        Tree::Tuple(v) => v.iter().map(max_rank).max().unwrap_or(0).max(v.len()),
    }
}

/// Rust tokens of a program over leaf coordinates `l[first + i]`, in `isize`.
fn program_tokens(p: &Program, coords: &[TokenStream]) -> TokenStream {
    let var = |v: &Var| match v {
        Var::Coord(i) => coords.get(*i).cloned().unwrap_or_else(|| quote!(0isize)),
        Var::Temp(i) => {
            let t = quote::format_ident!("t{}", *i);
            quote!(#t)
        }
    };
    let sum = |s: &Sum| {
        let c = Literal::i64_unsuffixed(s.constant);
        let terms = s.terms.iter().map(|(coef, t)| {
            let body = match t {
                Term::Var(v) => var(v),
                Term::Div(v, w) => {
                    let (v, w) = (var(v), Literal::i64_unsuffixed(*w));
                    quote!((#v / #w))
                }
                Term::Mod(v, m) => {
                    let (v, m) = (var(v), Literal::i64_unsuffixed(*m));
                    quote!((#v % #m))
                }
                Term::DivMod(v, w, m) => {
                    let (v, w, m) = (
                        var(v),
                        Literal::i64_unsuffixed(*w),
                        Literal::i64_unsuffixed(*m),
                    );
                    quote!(((#v / #w) % #m))
                }
                Term::Swizzle { x, src, mask, dst } => {
                    let x = var(x);
                    let (src, mask, dst) = (
                        Literal::u32_unsuffixed(*src),
                        Literal::i64_unsuffixed(*mask),
                        Literal::u32_unsuffixed(*dst),
                    );
                    quote!((#x ^ (((#x >> #src) & #mask) << #dst)))
                }
            };
            let coef = Literal::i64_unsuffixed(*coef);
            quote!(+ (#coef as isize) * #body)
        });
        quote!((#c as isize) #(#terms)*)
    };
    let lets = p.lets.iter().enumerate().map(|(i, s)| {
        let t = quote::format_ident!("t{}", i);
        let v = sum(s);
        quote!(let #t: isize = #v;)
    });
    let r = sum(&p.result);
    quote!({ #(#lets)* #r })
}

/// Rust code that rebuilds the map at run time with `layout-core` (for `to_map`).
fn map_builder(k: &TokenStream, m: &Map) -> TokenStream {
    let sp = |s: Space| match s {
        Space::Logical => quote!(#k::core_algebra::Space::Logical),
        Space::ThreadValue => quote!(#k::core_algebra::Space::ThreadValue),
        Space::Physical => quote!(#k::core_algebra::Space::Physical),
    };
    let tile = |t: Option<&[i64]>| match t {
        Some(v) => quote!(::core::option::Option::Some(#k::__private::vec![#(#v),*])),
        None => quote!(::core::option::Option::None),
    };
    match m {
        Map::Layout(a) => {
            let text = a.layout().to_string();
            let (d, c) = (sp(m.domain()), sp(m.codomain()));
            let (dt, ct) = (tile(m.domain_tile()), tile(m.codomain_tile()));
            quote!(#k::core_algebra::Map::from(
                #k::core_algebra::Annotated::new(#text.parse()?, #d, #c)?.with_tiles(#dt, #ct)?
            ))
        }
        Map::Swizzled { swizzle, inner } => {
            let i = map_builder(k, inner);
            let (b, s, d) = (swizzle.bits(), swizzle.src(), swizzle.dst());
            quote!(#i.swizzle(#k::core_algebra::Swizzle::new(#b, #s, #d)?)?)
        }
        Map::Composite { left, right } => {
            let (l, r) = (map_builder(k, left), map_builder(k, right));
            quote!(#k::core_algebra::compose(&#l, &#r)?)
        }
        Map::Restricted { fixed, inner } => {
            let i = map_builder(k, inner);
            let f = fixed.iter().map(|(e, v)| quote!((#e, #v)));
            quote!(#i.restrict(&[#(#f),*])?)
        }
    }
}

/// The smallest and largest offset of a map (tabulated).
fn offset_range(map: &Map) -> (i64, i64) {
    let mut range = (i64::MAX, i64::MIN);
    for i in 0..map.size().min(layout_core::DECIDE_LIMIT) {
        if let Ok(v) = map.eval_index(i) {
            range = (range.0.min(v), range.1.max(v));
        }
    }
    if range.0 > range.1 { (0, 0) } else { range }
}

/// A readable description of a map, for `Display`.
fn describe(m: &Map) -> String {
    match m {
        Map::Layout(a) => a.layout().to_string(),
        Map::Swizzled { swizzle, inner } => format!("{swizzle} ∘ {}", describe(inner)),
        Map::Composite { left, right } => format!("[{}] ∘ [{}]", describe(left), describe(right)),
        Map::Restricted { fixed, inner } => {
            let f: Vec<String> = fixed.iter().map(|(e, v)| format!("{e} = {v}")).collect();
            format!("restrict({}, {})", describe(inner), f.join(", "))
        }
    }
}

/// A generated type whose `offset` runs `program` over the domain's leaf coordinates; with a
/// run-time `restrict`, `map` is the unrestricted map and `entry` the fixed top-level entry.
fn generated(
    k: &TokenStream,
    map: &Map,
    index: IndexTy,
    program: &Program,
    runtime: Option<(usize, &TokenStream, bool, &Program)>,
) -> TokenStream {
    let full_shape = map.domain_shape();
    let entries: Vec<Tree<i64>> = match &full_shape {
        Tree::Tuple(v) => v.clone(),
        Tree::Leaf(_) => vec![full_shape.clone()],
    };
    // The domain of the value: the map's, less a run-time restricted entry.
    let shape = match runtime {
        None => full_shape.clone(),
        Some((entry, ..)) => {
            let free: Vec<Tree<i64>> = entries
                .iter()
                .enumerate()
                .filter(|(e, _)| *e != entry)
                .map(|(_, t)| t.clone())
                .collect();
            match free.len() {
                0 => Tree::Leaf(1),
                1 => free.into_iter().next().unwrap_or(Tree::Leaf(1)),
                _ => Tree::Tuple(free),
            }
        }
    };
    let size: i64 = shape.leaves().into_iter().product();
    let form = Layout::new(shape.clone(), shape.map(&mut |_| Stride::Int(1)))
        .map_or(quote!(#k::Dim<1, 0>), |l| form(k, l.shape(), l.stride()));
    let n = Literal::usize_unsuffixed(size as usize);
    let dom = space(k, map.domain());
    let cod = if map.is_swizzled() {
        quote!(#k::SwizzledPhysicalSpace)
    } else {
        space(k, map.codomain())
    };
    let acc = if read_only(map) {
        quote!(#k::ReadOnly)
    } else {
        quote!(#k::Exclusive)
    };
    let dt = tile(
        k,
        if runtime.is_some() {
            None
        } else {
            map.domain_tile().map(<[i64]>::to_vec)
        }
        .as_ref(),
    );
    let idx = index_type(index);
    let (min, max) = offset_range(map);
    let coords: Vec<TokenStream> = (0..shape.leaves().len())
        .map(|i| quote!((l[#i] as isize)))
        .collect();
    let text = describe(map);
    let (fields, init, body, restrict) = match runtime {
        None => (
            quote!(),
            quote!(__LayoutExpr {}),
            program_tokens(program, &coords),
            quote!(__m),
        ),
        Some((entry, value, agree, full)) => {
            // The full map's leaves: the fixed entry's from `t` (unflattened, last fastest),
            // the others from `l` (or 0, for the constant part).
            let full_coords = |free_leaf: &dyn Fn(usize) -> TokenStream| {
                let mut out = Vec::new();
                let mut free = 0usize;
                for (e, t) in entries.iter().enumerate() {
                    let leaves: Vec<i64> = t.leaves().into_iter().copied().collect();
                    if e == entry {
                        let mut w = 1i64;
                        let mut parts = Vec::new();
                        for &sz in leaves.iter().rev() {
                            let (wl, szl) =
                                (Literal::i64_unsuffixed(w), Literal::i64_unsuffixed(sz));
                            parts.push(quote!(((((t as usize) / #wl) % #szl) as isize)));
                            w *= sz;
                        }
                        parts.reverse();
                        out.extend(parts);
                    } else {
                        for _ in &leaves {
                            out.push(free_leaf(free));
                            free += 1;
                        }
                    }
                }
                out
            };
            let restrict = quote!(__m.restrict(&[(#entry, self.t as i64)])?);
            // The value is a coordinate of the entry: checked like one (debug assertions).
            let esize = entry_size(&full_shape, entry) as isize;
            let check = quote!(::core::debug_assert!(
                (0..#esize).contains(&t),
                "restrict: the run-time value is outside its entry [0, {})",
                #esize
            ););
            if agree {
                let base = program_tokens(full, &full_coords(&|_| quote!(0isize)));
                let restricted = program_tokens(program, &coords);
                (
                    quote!(t: isize, base: isize,),
                    quote!({ let t: isize = (#value) as isize; #check let base: isize = #base; __LayoutExpr { t, base } }),
                    quote!(self.base + #restricted),
                    restrict,
                )
            } else {
                let full_body = program_tokens(full, &full_coords(&|i| quote!((l[#i] as isize))));
                (
                    quote!(t: isize,),
                    quote!({ let t: isize = (#value) as isize; #check __LayoutExpr { t } }),
                    quote!({ let t: isize = self.t; #full_body }),
                    restrict,
                )
            }
        }
    };
    let build = map_builder(k, map);
    quote!({
        #[derive(Clone, Copy, Debug)]
        struct __LayoutExpr { #fields }
        impl #k::__private::Sealed for __LayoutExpr {}
        #[allow(clippy::all, unused_parens)]
        impl #k::Layout for __LayoutExpr {
            type Domain = #dom;
            type Codomain = #cod;
            type Size = #k::Size<#n>;
            type Access = #acc;
            type DomainTile = #dt;
            type CodomainTile = #k::NoTile;
            type Index = #idx;
            type Form = #form;
            const SIZE: usize = #n;
            const MIN_OFFSET: i64 = #min;
            const MAX_OFFSET: i64 = #max;
            const LINEAR: ::core::option::Option<#k::Leaves> = ::core::option::Option::None;
            #[inline(always)]
            fn offset<C: #k::Coord<Self::Form>>(&self, c: C) -> #idx {
                let mut l = [0usize; #k::MAX_LEAVES];
                c.leaves(&mut l, 0);
                self.eval(&l)
            }
            #[inline(always)]
            fn offset_index(&self, i: usize) -> #idx {
                let mut l = [0usize; #k::MAX_LEAVES];
                <#form as #k::Form>::leaves_of_index(i, &mut l, 0);
                self.eval(&l)
            }
            fn write(f: &mut ::core::fmt::Formatter<'_>, _cute: bool) -> ::core::fmt::Result {
                f.write_str(#text)
            }
            fn to_map(&self) -> ::core::result::Result<#k::core_algebra::Map, #k::core_algebra::Error> {
                let __m = #build;
                ::core::result::Result::Ok(#restrict)
            }
        }
        #[allow(clippy::all, unused_parens)]
        impl __LayoutExpr {
            #[inline(always)]
            #[allow(unused_parens, clippy::all)]
            fn eval(&self, l: &[usize; #k::MAX_LEAVES]) -> #idx {
                let _ = l;
                let v: isize = #body;
                v as #idx
            }
        }
        #init
    })
}
