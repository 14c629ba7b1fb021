//! gungraun's (iai-callgrind's) benchmark macros for nbench-gungraun.
//!
//! `#[library_benchmark]` keeps the function and adds a hidden one beside
//! it that registers one nbench benchmark per `#[bench::id(…)]` (per
//! element of a `#[benches::id(…)]`); `#[binary_benchmark]` likewise, each
//! bench timing the command the function builds. `library_benchmark_group!` makes a
//! function that registers its benchmarks under the group's name, and
//! `main!` the bench binary's `main`, which runs the groups as the command
//! line asks. Ids are gungraun's path: `group::function::id`.

mod bench;
mod binary;
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
    match group::group(input.into(), false) {
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

/// `#[binary_benchmark]` on a function returning a `Command`, with its
/// `#[bench::…]` and `#[benches::…]` attributes below it.
#[proc_macro_attribute]
pub fn binary_benchmark(attr: TokenStream, item: TokenStream) -> TokenStream {
    let f = syn::parse_macro_input!(item as syn::ItemFn);
    match binary::expand(attr.into(), f) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `binary_benchmark_group!(name = …; benchmarks = …)`, the benchmarks
/// listed or added by `|group| …`.
#[proc_macro]
pub fn binary_benchmark_group(input: TokenStream) -> TokenStream {
    match group::group(input.into(), true) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `binary_benchmark_attribute!(f)`: the `BinaryBenchmark` of a
/// `#[binary_benchmark]` function.
#[proc_macro]
pub fn binary_benchmark_attribute(input: TokenStream) -> TokenStream {
    match binary::attribute(input.into()) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}
