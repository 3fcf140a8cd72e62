//! Emits the typed value: a `Static<Form, Spec<..>>` (wrapped in `Swizzled` when swizzled).
//! Emits little, since compiling the output dominates the cost of a `layout!`.

use layout_core::{Space, Stride, Tree};
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
        Input::Items(items) => {
            let mut out = TokenStream::new();
            for it in items {
                let (checked, errs) = valid::check(&it.decl);
                out.extend(errors(errs));
                if let Some(c) = checked {
                    let (ty, expr) = typed(k, &c);
                    let (attrs, vis, name) = (&it.attrs, &it.vis, &it.name);
                    out.extend(quote! {
                        #(#attrs)*
                        #[allow(non_camel_case_types)]
                        #vis type #name = #ty;
                        #(#attrs)*
                        #vis const #name: #name = #expr;
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

/// The type and the value expression of a checked declaration.
fn typed(k: &TokenStream, c: &Checked) -> (TokenStream, TokenStream) {
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
    let idx = match c.index {
        IndexTy::I32 => quote!(::core::primitive::i32),
        IndexTy::I64 => quote!(::core::primitive::i64),
        IndexTy::U32 => quote!(::core::primitive::u32),
        IndexTy::Usize => quote!(::core::primitive::usize),
    };
    let ty = quote!(#k::Static<#f, #k::Spec<#dom, #cod, #k::Size<#n>, #acc, #dt, #ct, #idx>>);
    let expr = quote!(<#ty>::NEW);
    match c.swizzle {
        None => (ty, expr),
        Some(s) => {
            let (b, src, dst) = (
                Literal::u32_unsuffixed(s.bits()),
                Literal::u32_unsuffixed(s.src()),
                Literal::u32_unsuffixed(s.dst()),
            );
            let sty = quote!(#k::Swizzled<#ty, #b, #src, #dst>);
            let sexpr = quote!(<#sty>::new(#expr));
            (sty, sexpr)
        }
    }
}
