//! A library benchmark's `config = …` is not compiled (nbench-gungraun does
//! not honour it; a binary benchmark's is), yet the configuration types it
//! names were imported for it, and a function that makes it was written
//! for it: those are marked used, so a suite builds without new warnings.

use proc_macro2::{TokenStream as Tokens, TokenTree};
use quote::quote;

/// nbench-gungraun's configuration types (its `config.rs`).
const NAMES: [&str; 28] = [
    "LibraryBenchmarkConfig",
    "BinaryBenchmarkConfig",
    "Callgrind",
    "Cachegrind",
    "Dhat",
    "Memcheck",
    "Helgrind",
    "Drd",
    "Massif",
    "Bbv",
    "Tool",
    "ValgrindTool",
    "EventKind",
    "CachegrindMetric",
    "CachegrindMetrics",
    "CallgrindMetrics",
    "ErrorMetric",
    "DhatMetric",
    "DhatMetrics",
    "OutputFormat",
    "FlamegraphConfig",
    "FlamegraphKind",
    "SanitizeOutput",
    "EntryPoint",
    "Direction",
    "RegressionConfig",
    "Limit",
    "Sandbox",
];

/// The configuration types `tokens` names at the start of a path (not
/// after `::`), each once.
fn named(tokens: Tokens, out: &mut Vec<proc_macro2::Ident>) {
    let mut after_colons = false;
    for tree in tokens {
        match &tree {
            TokenTree::Group(g) => named(g.stream(), out),
            TokenTree::Ident(i) => {
                let known = NAMES.iter().any(|n| i == n);
                if known && !after_colons && !out.contains(i) {
                    out.push(i.clone());
                }
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
        after_colons = matches!(&tree, TokenTree::Punct(p) if p.as_char() == ':');
    }
}

/// Statements that use each configuration type `configs` name, and each
/// function of the suite's own that makes one (`config = config()`),
/// typed in a closure never called: nothing of it is left unused.
pub fn uses<'a>(configs: impl IntoIterator<Item = &'a syn::Expr>) -> Tokens {
    let (mut names, mut made) = (Vec::new(), Vec::new());
    for c in configs {
        named(quote!(#c), &mut names);
        if matches!(c, syn::Expr::Call(call) if matches!(*call.func, syn::Expr::Path(_))) {
            made.push(c);
        }
    }
    quote! {
        #( let _: ::core::marker::PhantomData<#names> = ::core::marker::PhantomData; )*
        #( let _ = || { let _ = #made; }; )*
    }
}
