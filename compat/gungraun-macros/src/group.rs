//! `library_benchmark_group!` and `main!`: lists of `key = value`,
//! separated by `;` (gungraun's form) or `,`, a list of names written
//! bare (`benchmarks = a, b`) or in brackets (`benchmarks = [a, b]`).

use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Path, Token};

/// One `key = value` of the macro's input.
enum Value {
    Expr(Expr),
    Names(Vec<Path>),
}

/// The keys whose values are lists of names.
const LISTS: [&str; 3] = [
    "benchmarks",
    "library_benchmark_groups",
    "binary_benchmark_groups",
];

fn names(input: ParseStream) -> syn::Result<Vec<Path>> {
    if input.peek(syn::token::Bracket) {
        let inner;
        syn::bracketed!(inner in input);
        let list = Punctuated::<Path, Token![,]>::parse_terminated(&inner)?;
        return Ok(list.into_iter().collect());
    }
    let mut list = vec![input.parse::<Path>()?];
    // A comma followed by `key =` ends the list.
    while input.peek(Token![,]) && !(input.peek2(Ident) && input.peek3(Token![=])) {
        input.parse::<Token![,]>()?;
        if input.is_empty() || input.peek(Token![;]) {
            break;
        }
        list.push(input.parse()?);
    }
    Ok(list)
}

fn pairs(input: ParseStream) -> syn::Result<Vec<(Ident, Value)>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        let key: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        // `benchmarks = |group| …` is the low-level API's closure.
        let listed = LISTS.iter().any(|l| key == l) && !input.peek(Token![|]);
        let value = match listed {
            true => Value::Names(names(input)?),
            false => Value::Expr(input.parse()?),
        };
        out.push((key, value));
        while input.peek(Token![;]) || input.peek(Token![,]) {
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            } else {
                input.parse::<Token![,]>()?;
            }
        }
    }
    Ok(out)
}

/// A `fn()` running `expr` once, for a group's or `main!`'s `setup` and
/// `teardown`; `None` without.
fn once(expr: Option<&Expr>) -> Tokens {
    match expr {
        Some(e) => quote!(::core::option::Option::Some((|| { let _ = #e; }) as fn())),
        None => quote!(::core::option::Option::None),
    }
}

/// The `key = expr` of `pairs`, if there is one.
fn expr<'a>(pairs: &'a [(Ident, Value)], key: &str) -> Option<&'a Expr> {
    pairs.iter().find_map(|(k, v)| match v {
        Value::Expr(e) if k == key => Some(e),
        _ => None,
    })
}

/// The names listed under `key`.
fn listed<'a>(pairs: &'a [(Ident, Value)], key: &str) -> Option<&'a [Path]> {
    pairs.iter().find_map(|(k, v)| match v {
        Value::Names(n) if k == key => Some(n.as_slice()),
        _ => None,
    })
}

/// Options accepted and not honoured, as `r.unhonoured(…)` calls: a
/// binary group's `config` is honoured.
fn unhonoured(pairs: &[(Ident, Value)], binary: bool) -> Vec<Tokens> {
    (pairs.iter())
        .filter(|(k, _)| (k == "config" && !binary) || k == "compare_by_id")
        .map(|(k, _)| {
            let k = k.to_string();
            quote!(__nbench_r.unhonoured(#k);)
        })
        .collect()
}

/// The function registering a group's benchmarks, beside the group's module.
fn hidden_group(name: &Ident) -> Ident {
    format_ident!("__nbench_gungraun_group_{}", name)
}

/// `library_benchmark_group!(name = g; benchmarks = a, b)`: a function
/// registering `a` and `b` under `g`, and a module `g`, as gungraun makes
/// one, through which `main!` reaches it: a group may share its name with
/// a function of the suite, and be brought in from another module by `use`
/// (portgraph's `use benchmarks::convex::callgrind_group as convex;`).
/// `binary` for `binary_benchmark_group!`, whose `config` is honoured.
pub fn group(input: Tokens, binary: bool) -> syn::Result<Tokens> {
    let pairs = pairs.parse2(input)?;
    let name = match expr(&pairs, "name") {
        Some(Expr::Path(p)) if p.path.get_ident().is_some() => p.path.get_ident().cloned(),
        _ => None,
    };
    let Some(name) = name else {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "a group needs `name = …`",
        ));
    };
    if let Some((key, _)) = pairs.iter().find(|(k, _)| k == "benchmark") {
        return Err(syn::Error::new(
            key.span(),
            "iai-callgrind's first binary benchmarks (`benchmark = |…|`, `Run`, `Arg`) are not \
             read by nbench-gungraun: write them with `#[binary_benchmark]`, or with \
             `benchmarks = |group| group.binary_benchmark(…)`",
        ));
    }
    let k = crate::krate::path();
    let benchmarks = listed(&pairs, "benchmarks").unwrap_or_default();
    let mut calls: Vec<Tokens> = (benchmarks.iter())
        .map(|p| quote!(#p::__nbench_register(__nbench_r);))
        .collect();
    calls.extend(low_level(expr(&pairs, "benchmarks"), &k)?);
    let shown = name.to_string();
    let module = name.clone();
    let name = hidden_group(&name);
    let (setup, teardown) = (once(expr(&pairs, "setup")), once(expr(&pairs, "teardown")));
    let unhonoured = unhonoured(&pairs, binary);
    let (uses, config) = match (binary, expr(&pairs, "config")) {
        (true, Some(c)) => (Tokens::new(), quote!(__nbench_r.binary_config(#c);)),
        (_, c) => (crate::config::uses(c), Tokens::new()),
    };
    Ok(quote! {
        #[allow(non_snake_case)]
        fn #name(__nbench_r: &mut #k::__private::Registrar) {
            #uses
            __nbench_r.group(#shown, #setup, #teardown);
            #config
            #(#unhonoured)*
            #(#calls)*
        }
        #[doc(hidden)]
        pub mod #module {
            #[doc(hidden)]
            pub fn __nbench_group(__nbench_r: &mut #k::__private::Registrar) {
                super::#name(__nbench_r)
            }
        }
    })
}

/// `benchmarks = |group: &mut BinaryBenchmarkGroup| …`: the closure's
/// body run on a group of nbench-gungraun's, whose binary benchmarks are
/// then registered.
fn low_level(closure: Option<&Expr>, k: &Tokens) -> syn::Result<Option<Tokens>> {
    let Some(e) = closure else {
        return Ok(None);
    };
    let Expr::Closure(c) = e else {
        let why = "`benchmarks` is a list of names or a closure `|group| …`";
        return Err(syn::Error::new_spanned(e, why));
    };
    let param = match c.inputs.first() {
        Some(syn::Pat::Type(t)) => (*t.pat).clone(),
        Some(other) if c.inputs.len() == 1 => other.clone(),
        _ => {
            let why = "the closure takes the group: `|group: &mut BinaryBenchmarkGroup| …`";
            return Err(syn::Error::new_spanned(c, why));
        }
    };
    let body = &c.body;
    Ok(Some(quote! {
        let mut __nbench_g = #k::BinaryBenchmarkGroup::default();
        {
            let #param: &mut #k::BinaryBenchmarkGroup = &mut __nbench_g;
            let _ = #body;
        }
        for __nbench_bb in __nbench_g.into_benchmarks() {
            __nbench_r.binary(__nbench_bb);
        }
    }))
}

/// `main!(library_benchmark_groups = g, h)` (or
/// `binary_benchmark_groups`, or both): the binary's `main`.
pub fn main(input: Tokens) -> syn::Result<Tokens> {
    let pairs = pairs.parse2(input)?;
    let span = proc_macro2::Span::call_site();
    let library = listed(&pairs, "library_benchmark_groups");
    let binary = listed(&pairs, "binary_benchmark_groups");
    if library.is_none() && binary.is_none() {
        return Err(syn::Error::new(
            span,
            "`main!` needs `library_benchmark_groups = …` or `binary_benchmark_groups = …`",
        ));
    }
    let groups = (library.into_iter().chain(binary).flatten()).map(|p| quote!(#p::__nbench_group));
    let k = crate::krate::path();
    let (setup, teardown) = (once(expr(&pairs, "setup")), once(expr(&pairs, "teardown")));
    // A `main!` of binary groups alone takes a `BinaryBenchmarkConfig`.
    let (uses, config) = match (library, expr(&pairs, "config")) {
        (_, None) => (Tokens::new(), quote!(::core::option::Option::None)),
        (None, Some(c)) => (
            Tokens::new(),
            quote!(::core::option::Option::Some(#k::__private::MainConfig::Binary(
                ::core::convert::Into::<#k::BinaryBenchmarkConfig>::into(#c)
            ))),
        ),
        (Some(_), c) => (
            crate::config::uses(c),
            quote!(::core::option::Option::Some(#k::__private::MainConfig::Library)),
        ),
    };
    Ok(quote! {
        fn main() {
            #uses
            let __nbench_groups: &[fn(&mut #k::__private::Registrar)] = &[#(#groups),*];
            let __nbench_code = #k::__private::run(__nbench_groups, #setup, #teardown, #config);
            ::std::process::exit(__nbench_code)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Vec<(String, usize)> {
        let tokens: Tokens = text.parse().unwrap();
        let pairs = pairs.parse2(tokens).unwrap();
        (pairs.iter())
            .map(|(k, v)| {
                let n = match v {
                    Value::Names(n) => n.len(),
                    Value::Expr(_) => 0,
                };
                (k.to_string(), n)
            })
            .collect()
    }

    #[test]
    fn semicolons_commas_and_brackets_all_separate_the_same_keys() {
        let want = [("name".to_owned(), 0), ("benchmarks".to_owned(), 3)];
        for text in [
            "name = g; benchmarks = a, b, m::c",
            "name = g; benchmarks = a, b, m::c,",
            "name = g, benchmarks = [a, b, m::c]",
            "name = g;; benchmarks = [a, b, m::c,];",
        ] {
            assert_eq!(parsed(text), want, "{text}");
        }
        let both = parsed("benchmarks = a, b, setup = run(1, 2)");
        assert_eq!(
            both,
            [("benchmarks".to_owned(), 2), ("setup".to_owned(), 0)]
        );
    }

    #[test]
    fn a_group_registers_its_benchmarks_through_their_hidden_functions() {
        let out = group(
            "name = g; config = LibraryBenchmarkConfig::default(); benchmarks = a, m::b"
                .parse()
                .unwrap(),
            false,
        )
        .unwrap()
        .to_string();
        assert!(out.contains("a :: __nbench_register (__nbench_r)"), "{out}");
        assert!(
            out.contains("m :: b :: __nbench_register (__nbench_r)"),
            "{out}"
        );
        assert!(
            out.contains("__nbench_r . unhonoured (\"config\")"),
            "{out}"
        );
        assert!(
            out.contains("PhantomData < LibraryBenchmarkConfig >"),
            "{out}"
        );
        let unnamed = group("benchmarks = a".parse().unwrap(), false).err();
        assert!(unnamed.unwrap().to_string().contains("`name = …`"));
    }

    #[test]
    fn a_group_runs_the_low_level_closure_on_a_group_of_its_own() {
        let out = group(
            "name = low; config = c(); benchmarks = |group: &mut BinaryBenchmarkGroup| { group.binary_benchmark(x) }"
                .parse()
                .unwrap(),
            true,
        )
        .unwrap()
        .to_string();
        assert!(out.contains("let group : & mut"), "{out}");
        assert!(out.contains("__nbench_r . binary (__nbench_bb)"), "{out}");
        // A binary group's configuration is honoured.
        assert!(out.contains("__nbench_r . binary_config (c ())"), "{out}");
        assert!(!out.contains("unhonoured"), "{out}");
        let old = group(
            "name = g; benchmark = |\"exe\", group| {}".parse().unwrap(),
            true,
        );
        let old = old.err().unwrap().to_string();
        assert!(old.contains("`#[binary_benchmark]`"), "{old}");
    }

    #[test]
    fn main_runs_library_and_binary_groups_and_wants_some() {
        let binary = main("config = c(); binary_benchmark_groups = g".parse().unwrap()).unwrap();
        let binary = binary.to_string();
        assert!(binary.contains("[g :: __nbench_group]"), "{binary}");
        assert!(binary.contains("MainConfig :: Binary"), "{binary}");
        let none = main("config = x".parse().unwrap()).err().unwrap();
        assert!(
            none.to_string().contains("library_benchmark_groups"),
            "{none}"
        );
        let ok = main(
            "setup = prepare(); library_benchmark_groups = g, h"
                .parse()
                .unwrap(),
        )
        .unwrap();
        let ok = ok.to_string();
        assert!(
            ok.contains("[g :: __nbench_group , h :: __nbench_group]"),
            "{ok}"
        );
    }
}
