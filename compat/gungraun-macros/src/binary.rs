//! `#[binary_benchmark]`: the function kept, and beside it a hidden
//! module of its name that makes its `BinaryBenchmark` (one bench per
//! `#[bench::id(…)]`, per element of a `#[benches::id(…)]`) and
//! registers it.
//!
//! The function builds a command and runs when its benchmark starts. As
//! in gungraun, a `setup` or `teardown` named bare (`setup = f`) is called
//! with the bench's arguments, and any other expression (`setup = f()`)
//! is run as it is, before and after each run of the command.

use crate::bench::{Args, Bench, benches_of_fn, beside, callee};
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{Expr, ItemFn};

/// A hook (`setup` or `teardown`) as an `Option<Rc<dyn Fn()>>`, given
/// `args`, the bench's arguments, where it is named bare.
fn hook(e: Option<&Expr>, args: &Tokens) -> Tokens {
    let body = match e {
        None => return quote!(::core::option::Option::None),
        Some(Expr::Path(p)) => quote!(#p(#args)),
        Some(other) => quote!(#other),
    };
    quote!(::core::option::Option::Some(
        ::std::rc::Rc::new(move || { let _ = #body; }) as ::std::rc::Rc<dyn ::core::ops::Fn()>
    ))
}

/// A `config = …` as an `Option<BinaryBenchmarkConfig>`: it is
/// honoured, so it is compiled (a library benchmark's is not).
pub fn config(e: Option<&Expr>, k: &Tokens) -> Tokens {
    match e {
        Some(e) => quote!(::core::option::Option::Some(
            ::core::convert::Into::<#k::BinaryBenchmarkConfig>::into(#e)
        )),
        None => quote!(::core::option::Option::None),
    }
}

/// The statement adding bench `b` of `f` to `__nbench_bb`.
fn bench(b: &Bench, (f, generics): (&syn::Ident, &syn::Generics), k: &Tokens) -> Tokens {
    let called = callee(f, generics, &b.consts);
    let id = &b.id;
    let add = |id: Tokens, args: Tokens| {
        let (setup, teardown) = (
            hook(b.setup.as_ref(), &args),
            hook(b.teardown.as_ref(), &args),
        );
        let config = config(b.config.as_ref(), k);
        quote! {
            __nbench_bb.bench(#k::__private::lazy_bench(
                #id, move || #called(#args), (#setup, #teardown), #config,
            ));
        }
    };
    match &b.args {
        Args::Exprs(exprs) => add(quote!(#id), quote!(#(#exprs),*)),
        Args::Iter(iter) => {
            let item = quote!(::core::clone::Clone::clone(&__nbench_item));
            let one = add(quote!(&::std::format!("{}_{}", #id, __nbench_i)), item);
            quote! {
                for (__nbench_i, __nbench_item) in ::core::iter::IntoIterator::into_iter(#iter).enumerate() {
                    #one
                }
            }
        }
    }
}

/// `#[binary_benchmark(…)]` on `f`.
pub fn expand(attr: Tokens, mut f: ItemFn) -> syn::Result<Tokens> {
    let own = crate::bench::opts_config(&attr)?;
    let (benches, _) = benches_of_fn(attr, &mut f, "binary_benchmark")?;
    let k = crate::krate::path();
    let ident = &f.sig.ident;
    let name = ident.to_string();
    let benches = (benches.iter()).map(|b| bench(b, (ident, &f.sig.generics), &k));
    let own = own.map(|c| quote!(__nbench_bb.config(#c);));
    let items = quote! {
        pub fn __nbench_binary() -> #k::BinaryBenchmark {
            let mut __nbench_bb = #k::BinaryBenchmark::new(#name);
            #own
            #(#benches)*
            __nbench_bb
        }

        pub fn __nbench_register(__nbench_r: &mut #k::__private::Registrar) {
            __nbench_r.binary(__nbench_binary());
        }
    };
    Ok(beside(&f, items))
}

/// `binary_benchmark_attribute!(f)`: the `BinaryBenchmark` that
/// `#[binary_benchmark]` made of `f`, for the low-level API.
pub fn attribute(input: Tokens) -> syn::Result<Tokens> {
    let path: syn::Path = syn::parse2(input)?;
    Ok(quote!(#path::__nbench_binary()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_hook_takes_the_benchs_arguments_and_a_call_runs_as_written() {
        let args = quote!("a.txt", 2);
        let bare = hook(Some(&syn::parse_quote!(make_file)), &args).to_string();
        assert!(bare.contains("make_file (\"a.txt\" , 2)"), "{bare}");
        let called = hook(Some(&syn::parse_quote!(make_file("b"))), &args).to_string();
        assert!(called.contains("make_file (\"b\")"), "{called}");
        assert!(!called.contains("a.txt"), "{called}");
        assert_eq!(
            hook(None, &args).to_string(),
            quote!(::core::option::Option::None).to_string()
        );
    }

    #[test]
    fn each_bench_is_made_when_its_benchmark_starts() {
        let f: ItemFn = syn::parse_quote! {
            #[bench::short("x")]
            #[benches::many(args = ["y", "z"], setup = prepare)]
            fn tool(arg: &str) -> gungraun::Command { gungraun::Command::new("t").arg(arg).build() }
        };
        let out = expand(Tokens::new(), f).unwrap().to_string();
        assert!(out.contains("BinaryBenchmark :: new (\"tool\")"), "{out}");
        assert!(
            out.contains("lazy_bench (\"short\" , move || tool (\"x\")"),
            "{out}"
        );
        assert!(
            out.contains("lazy_bench (\"many_1\" , move || tool (\"z\")"),
            "{out}"
        );
        assert!(out.contains("prepare (\"z\")"), "{out}");
        assert!(
            out.contains("__nbench_r . binary (__nbench_binary ())"),
            "{out}"
        );
    }
}
