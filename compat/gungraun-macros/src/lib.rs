//! gungraun's (iai-callgrind's) library-benchmark macros for nbench-gungraun.
//!
//! `#[library_benchmark]` keeps the function and adds a hidden one beside
//! it that registers one nbench benchmark per `#[bench::id(…)]` (per
//! element of a `#[benches::id(…)]`). `library_benchmark_group!` makes a
//! function that registers its benchmarks under the group's name, and
//! `main!` the bench binary's `main`, which runs the groups as the command
//! line asks. Ids are gungraun's path: `group::function::id`.

mod bench;
mod config;
mod group;
mod krate;

use proc_macro::TokenStream;

/// `#[library_benchmark]` on a function, with its `#[bench::…]` and
/// `#[benches::…]` attributes below it.
#[proc_macro_attribute]
pub fn library_benchmark(attr: TokenStream, item: TokenStream) -> TokenStream {
    let f = syn::parse_macro_input!(item as syn::ItemFn);
    match bench::expand(attr.into(), f) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `library_benchmark_group!(name = …; benchmarks = …)`.
#[proc_macro]
pub fn library_benchmark_group(input: TokenStream) -> TokenStream {
    match group::group(input.into()) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `main!(library_benchmark_groups = …)`: the bench binary's `main`.
#[proc_macro]
pub fn main(input: TokenStream) -> TokenStream {
    match group::main(input.into()) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// What nbench-gungraun says of binary benchmarks, which it does not run.
const NO_BINARIES: &str = "nbench-gungraun runs library benchmarks only: a binary benchmark \
                           (`#[binary_benchmark]`) times a whole command; keep it on gungraun, \
                           or time the command with hyperfine";

/// `#[binary_benchmark]`: refused, saying why.
#[proc_macro_attribute]
pub fn binary_benchmark(_: TokenStream, item: TokenStream) -> TokenStream {
    let span = proc_macro2::TokenStream::from(item);
    syn::Error::new_spanned(span, NO_BINARIES)
        .to_compile_error()
        .into()
}

/// `binary_benchmark_group!`: refused, saying why.
#[proc_macro]
pub fn binary_benchmark_group(input: TokenStream) -> TokenStream {
    binary_benchmark(TokenStream::new(), input)
}
