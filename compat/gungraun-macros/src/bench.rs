//! `#[library_benchmark]`: the function kept, and beside it a hidden
//! module of its name registering each of its benches.
//!
//! A bench's arguments (and its `setup`, which they are given to) are made
//! outside the timing, as gungraun keeps them out of its counts; the
//! function's return value is dropped (or given to `teardown`) outside it
//! too. Each iteration gets arguments of its own.

use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ItemFn, LitStr, MetaNameValue, Token};

/// What an attribute's keyed options say (`args = …`, `setup = …`, …).
#[derive(Default, Clone)]
struct Opts {
    args: Option<Expr>,
    consts: Option<Expr>,
    setup: Option<Expr>,
    teardown: Option<Expr>,
    file: Option<LitStr>,
    iter: Option<Expr>,
    config: Option<Expr>,
}

const KEYS: [&str; 7] = [
    "args", "consts", "setup", "teardown", "file", "iter", "config",
];

/// The `config = …` of an attribute's options `tokens`, if it gives one.
pub fn opts_config(tokens: &Tokens) -> syn::Result<Option<Expr>> {
    Ok(opts(tokens.clone())?.0.config)
}

/// The options in `tokens`: keyed (`args = (…), setup = f`), or else the
/// arguments themselves, as a list (`#[bench::id(1, 2)]`).
fn opts(tokens: Tokens) -> syn::Result<(Opts, Option<Vec<Expr>>)> {
    let keyed = Punctuated::<MetaNameValue, Token![,]>::parse_terminated.parse2(tokens.clone());
    let keyed = keyed.ok().filter(|pairs| {
        !pairs.is_empty() && (pairs.iter()).all(|p| KEYS.iter().any(|k| p.path.is_ident(k)))
    });
    let Some(pairs) = keyed else {
        let list = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(tokens)?;
        return Ok((Opts::default(), Some(list.into_iter().collect())));
    };
    let mut o = Opts::default();
    for p in pairs {
        let v = p.value;
        match p.path.get_ident().map(|i| i.to_string()).as_deref() {
            Some("args") => o.args = Some(v),
            Some("consts") => o.consts = Some(v),
            Some("setup") => o.setup = Some(v),
            Some("teardown") => o.teardown = Some(v),
            Some("iter") => o.iter = Some(v),
            Some("config") => o.config = Some(v),
            _ => o.file = Some(syn::parse2(quote!(#v))?),
        }
    }
    Ok((o, None))
}

/// An argument list as written: a tuple's elements, a parenthesised
/// value alone, anything else as the one argument.
fn spread(e: Expr) -> Vec<Expr> {
    match e {
        Expr::Tuple(t) => t.elems.into_iter().collect(),
        Expr::Paren(p) => vec![*p.expr],
        other => vec![other],
    }
}

/// Where a bench's arguments come from.
#[derive(Clone)]
pub enum Args {
    /// These expressions, one per parameter (or per `setup` parameter).
    Exprs(Vec<Expr>),
    /// Each item of this iterable, one bench each (`iter = …`).
    Iter(Expr),
}

/// One bench of the function: its id below the function and its options.
#[derive(Clone)]
pub struct Bench {
    pub id: String,
    pub args: Args,
    /// The function's const generic values, in order (`consts = (…)`).
    pub consts: Vec<Expr>,
    pub setup: Option<Expr>,
    pub teardown: Option<Expr>,
    /// Its own `config = …` (a binary benchmark's bench honours it).
    pub config: Option<Expr>,
}

/// The benches one `#[bench::id(…)]` or `#[benches::id(…)]` names, with
/// their const generic values.
fn benches_of(
    attr: &syn::Attribute,
    global: &Opts,
    configs: &mut Vec<Expr>,
) -> syn::Result<Vec<Bench>> {
    let path = attr.path();
    let kind = path.segments[0].ident.to_string();
    let id = path.segments[1].ident.to_string();
    let tokens = match &attr.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => Tokens::new(),
    };
    let (o, list) = opts(tokens)?;
    configs.extend(o.config.clone());
    let consts = o.consts.clone();
    let benches = benches_in(&kind, id, o, list, global)?;
    match (consts, kind == "bench") {
        (None, _) => Ok(benches),
        (Some(c), true) => Ok(benches
            .into_iter()
            .map(|b| Bench {
                consts: spread(c.clone()),
                ..b
            })
            .collect()),
        (Some(c), false) => with_consts(benches, c),
    }
}

/// `#[benches]`'s `consts = [c, d]` paired with its benches: one bench a
/// value where it gives no arguments, each with its own where it gives as
/// many, or the one value for all.
fn with_consts(benches: Vec<Bench>, consts: Expr) -> syn::Result<Vec<Bench>> {
    let Expr::Array(list) = consts else {
        let e = "`consts` of `#[benches]` is a list: `consts = [a, b]`";
        return Err(syn::Error::new_spanned(consts, e));
    };
    let values: Vec<Expr> = list.elems.iter().cloned().collect();
    let bare = benches.len() == 1 && matches!(&benches[0].args, Args::Exprs(e) if e.is_empty());
    if bare && values.len() > 1 {
        let one = &benches[0];
        return Ok((values.into_iter().enumerate())
            .map(|(i, c)| Bench {
                id: format!("{}_{i}", one.id),
                consts: spread(c),
                ..one.clone()
            })
            .collect());
    }
    if values.len() != 1 && values.len() != benches.len() {
        let e =
            "`consts` and `args` of `#[benches]` pair up: give as many of each, or one `consts`";
        return Err(syn::Error::new_spanned(list, e));
    }
    Ok((benches.into_iter().enumerate())
        .map(|(i, b)| Bench {
            consts: spread(values[i.min(values.len() - 1)].clone()),
            ..b
        })
        .collect())
}

/// The benches of one attribute before their const generic values.
fn benches_in(
    kind: &str,
    id: String,
    o: Opts,
    list: Option<Vec<Expr>>,
    global: &Opts,
) -> syn::Result<Vec<Bench>> {
    let setup = o.setup.clone().or_else(|| global.setup.clone());
    let teardown = o.teardown.clone().or_else(|| global.teardown.clone());
    let bench = |id: String, args: Args| Bench {
        id,
        args,
        consts: Vec::new(),
        setup: setup.clone(),
        teardown: teardown.clone(),
        config: o.config.clone(),
    };
    if kind == "bench" {
        let exprs = match (list, o.args) {
            (Some(list), _) => list,
            // `args = [a, b]` lists them as `args = (a, b)` does.
            (None, Some(Expr::Array(a))) => a.elems.into_iter().collect(),
            (None, Some(args)) => spread(args),
            (None, None) => Vec::new(),
        };
        return Ok(vec![bench(id, Args::Exprs(exprs))]);
    }
    if let Some(iter) = o.iter {
        return Ok(vec![bench(id, Args::Iter(iter))]);
    }
    let elements = match (list, o.args, &o.file) {
        (Some(list), _, _) => list,
        (None, Some(Expr::Array(a)), _) => a.elems.into_iter().collect(),
        (None, Some(other), _) => {
            return Err(syn::Error::new_spanned(
                other,
                "`args` of `#[benches]` is a list: `args = [a, b]`",
            ));
        }
        (None, None, Some(file)) => lines(file)?,
        (None, None, None) => Vec::new(),
    };
    if elements.is_empty() {
        return Ok(vec![bench(id, Args::Exprs(Vec::new()))]);
    }
    Ok((elements.into_iter().enumerate())
        .map(|(i, e)| bench(format!("{id}_{i}"), Args::Exprs(spread(e))))
        .collect())
}

/// `file = "…"`: each line of the file a `String` argument, read when the
/// suite is compiled, the path taken from the package's folder upwards
/// (gungraun takes it from the workspace's root).
fn lines(file: &LitStr) -> syn::Result<Vec<Expr>> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let start = std::path::PathBuf::from(dir);
    let found = (start.ancestors())
        .map(|d| d.join(file.value()))
        .find(|p| p.is_file());
    let text = found
        .and_then(|p| std::fs::read_to_string(p).ok())
        .ok_or_else(|| syn::Error::new(file.span(), format!("cannot read `{}`", file.value())))?;
    Ok((text.lines())
        .map(|l| {
            let l = LitStr::new(l, Span::call_site());
            syn::parse_quote!(::std::string::String::from(#l))
        })
        .collect())
}

/// Whether `e` is a constant the compiler keeps for the whole program
/// (`&1`, `&[1, 2]`, `&NAME`), so that a reference to it outlives the
/// closure that makes the arguments.
fn promoted(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Array(a) => a.elems.iter().all(promoted),
        Expr::Tuple(t) => t.elems.iter().all(promoted),
        Expr::Unary(u) => promoted(&u.expr),
        Expr::Paren(p) => promoted(&p.expr),
        _ => false,
    }
}

/// An argument as made outside the timing and as passed to the function
/// (`x`): a reference to a value made on the spot (`&format!(…)`), which
/// gungraun's call keeps alive for the call, is made as the value and
/// passed by reference.
fn hoisted(e: &Expr, x: &syn::Ident) -> (Tokens, Tokens) {
    match e {
        Expr::Reference(r) if !promoted(&r.expr) => {
            let (value, mutability) = (&r.expr, &r.mutability);
            (quote!(#value), quote!(&#mutability #x))
        }
        _ => (quote!(#e), quote!(#x)),
    }
}

/// The function as a bench calls it: with its const generic values, and
/// `_` for each type parameter, where it gives any.
pub fn callee(f: &syn::Ident, generics: &syn::Generics, consts: &[Expr]) -> Tokens {
    if consts.is_empty() {
        return quote!(#f);
    }
    let mut values = consts.iter();
    let params = generics.params.iter().filter_map(|p| match p {
        syn::GenericParam::Const(_) => values.next().map(|c| quote!({ #c })),
        syn::GenericParam::Type(_) => Some(quote!(_)),
        syn::GenericParam::Lifetime(_) => None,
    });
    let params: Vec<Tokens> = params.collect();
    quote!(#f::<#(#params),*>)
}

/// The registration of one bench: `time(b, make, call)` under its id.
fn register(b: &Bench, (f, generics): (&syn::Ident, &syn::Generics), k: &Tokens) -> Tokens {
    let name = f.to_string();
    let id = match b.id.is_empty() {
        true => name,
        false => format!("{name}::{}", b.id),
    };
    let called = callee(f, generics, &b.consts);
    let call = |args: Tokens| match &b.teardown {
        Some(t) => quote!(#k::__private::Torn::new(#called(#args), #t)),
        None => quote!(#called(#args)),
    };
    let (make, call) = match (&b.args, &b.setup) {
        (Args::Exprs(exprs), None) => {
            let xs: Vec<_> = (0..exprs.len())
                .map(|i| format_ident!("__nbench_x{i}"))
                .collect();
            let (made, passed): (Vec<Tokens>, Vec<Tokens>) =
                exprs.iter().zip(&xs).map(|(e, x)| hoisted(e, x)).unzip();
            let bound = exprs.iter().zip(&xs).map(|(e, x)| match e {
                Expr::Reference(r) if r.mutability.is_some() => quote!(mut #x),
                _ => quote!(#x),
            });
            let body = call(quote!(#(#passed),*));
            (quote!(move || (#(#made,)*)), quote!(|(#(#bound,)*)| #body))
        }
        (Args::Exprs(exprs), Some(s)) => {
            let body = call(quote!(__nbench_x));
            (quote!(move || #s(#(#exprs),*)), quote!(|__nbench_x| #body))
        }
        (Args::Iter(_), setup) => {
            let body = call(quote!(__nbench_x));
            let item = quote!(::core::clone::Clone::clone(&__nbench_item));
            let made = match setup {
                Some(s) => quote!(#s(#item)),
                None => item,
            };
            (quote!(|| #made), quote!(|__nbench_x| #body))
        }
    };
    let add = |id: Tokens| {
        quote!(__nbench_r.add(#id, move |__nbench_b: &mut #k::__private::nbench::Bencher<'_>| {
            #k::__private::time(__nbench_b, #make, #call)
        });)
    };
    match &b.args {
        Args::Iter(iter) => {
            let one = add(quote!(&::std::format!("{}_{}", #id, __nbench_i)));
            quote!(for (__nbench_i, __nbench_item) in ::core::iter::IntoIterator::into_iter(#iter).enumerate() { #one })
        }
        Args::Exprs(_) => add(quote!(#id)),
    }
}

/// The benches `f`'s `#[bench]` and `#[benches]` attributes name (taken
/// off it), under the options of `attr`, the attribute on `f`; one of no
/// id where it has none. And every `config = …` given.
pub fn benches_of_fn(
    attr: Tokens,
    f: &mut ItemFn,
    what: &str,
) -> syn::Result<(Vec<Bench>, Vec<Expr>)> {
    let (global, list) = opts(attr)?;
    if let Some(first) = list.and_then(|l| l.into_iter().next()) {
        let known = KEYS.join("`, `");
        return Err(syn::Error::new_spanned(
            first,
            format!("`#[{what}]` takes `{known}`"),
        ));
    }
    let mut configs: Vec<Expr> = global.config.iter().cloned().collect();
    let mut benches = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut f.attrs) {
        let segments = &attr.path().segments;
        let ours =
            segments.len() == 2 && (segments[0].ident == "bench" || segments[0].ident == "benches");
        match ours {
            true => benches.extend(benches_of(&attr, &global, &mut configs)?),
            false => kept.push(attr),
        }
    }
    f.attrs = kept;
    if benches.is_empty() {
        let args = Args::Exprs(Vec::new());
        let (setup, teardown) = (global.setup.clone(), global.teardown.clone());
        benches.push(Bench {
            id: String::new(),
            args,
            consts: Vec::new(),
            setup,
            teardown,
            config: None,
        });
    }
    Ok((benches, configs))
}

/// `f` kept, and beside it a module of its name and visibility holding
/// `items`: a group names it as it names the function (`a`, `m::a`, or
/// `a` brought in by `use m::a`, which takes both), and it sees what the
/// function's module sees.
pub fn beside(f: &ItemFn, items: Tokens) -> Tokens {
    let (vis, ident) = (&f.vis, &f.sig.ident);
    quote! {
        #f
        #[doc(hidden)]
        #[allow(non_snake_case)]
        #vis mod #ident {
            #[allow(unused_imports)]
            use super::*;

            #items
        }
    }
}

/// `#[library_benchmark(…)]` on `f`.
pub fn expand(attr: Tokens, mut f: ItemFn) -> syn::Result<Tokens> {
    let (benches, configs) = benches_of_fn(attr, &mut f, "library_benchmark")?;
    let k = crate::krate::path();
    let ident = &f.sig.ident;
    let registrations = (benches.iter()).map(|b| register(b, (ident, &f.sig.generics), &k));
    let unhonoured = (!configs.is_empty()).then(|| quote!(__nbench_r.unhonoured("config");));
    let uses = crate::config::uses(&configs);
    let items = quote! {
        pub fn __nbench_register(__nbench_r: &mut #k::__private::Registrar) {
            #uses
            #unhonoured
            #(#registrations)*
        }
    };
    Ok(beside(&f, items))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(text: &str) -> syn::Attribute {
        let tokens: Tokens = text.parse().unwrap();
        syn::parse_quote!(#[#tokens])
    }

    fn ids_and_args(text: &str, global: &Opts) -> Vec<(String, usize, bool)> {
        let mut configs = Vec::new();
        let benches = benches_of(&attr(text), global, &mut configs).unwrap();
        (benches.iter())
            .map(|b| {
                let n = match &b.args {
                    Args::Exprs(e) => e.len(),
                    Args::Iter(_) => usize::MAX,
                };
                (b.id.clone(), n, b.setup.is_some())
            })
            .collect()
    }

    #[test]
    fn bench_and_benches_name_and_spread_their_arguments_as_gungraun_does() {
        let none = Opts::default();
        let one = |id: &str, n, s| vec![(id.to_owned(), n, s)];
        assert_eq!(ids_and_args("bench::a(1, 2)", &none), one("a", 2, false));
        assert_eq!(
            ids_and_args("bench::a(args = (1, 2))", &none),
            one("a", 2, false)
        );
        assert_eq!(
            ids_and_args("bench::a(args = (vec![1]))", &none),
            one("a", 1, false)
        );
        assert_eq!(
            ids_and_args("bench::a(args = [1, 2, 3])", &none),
            one("a", 3, false)
        );
        assert_eq!(ids_and_args("bench::a()", &none), one("a", 0, false));
        assert_eq!(
            ids_and_args("bench::a(args = (3), setup = s)", &none),
            one("a", 1, true)
        );
        let many = ids_and_args("benches::m((1, 2), (3, 4), 5)", &none);
        let want = [("m_0", 2), ("m_1", 2), ("m_2", 1)].map(|(i, n)| (i.to_owned(), n, false));
        assert_eq!(many, want);
        let keyed = ids_and_args("benches::k(args = [1, 2], setup = s)", &none);
        assert_eq!(
            keyed,
            [("k_0".to_owned(), 1, true), ("k_1".to_owned(), 1, true)]
        );
        assert_eq!(
            ids_and_args("benches::i(iter = 0..3)", &none),
            one("i", usize::MAX, false)
        );
        // The function's own `setup` applies where a bench gives none.
        let global = Opts {
            setup: Some(syn::parse_quote!(make)),
            ..Opts::default()
        };
        assert_eq!(ids_and_args("bench::g(1)", &global), one("g", 1, true));
    }

    #[test]
    fn consts_pair_with_the_benches_arguments() {
        let none = Opts::default();
        let consts = |text: &str| -> Vec<(String, usize)> {
            let mut configs = Vec::new();
            let benches = benches_of(&attr(text), &none, &mut configs).unwrap();
            benches
                .iter()
                .map(|b| (b.id.clone(), b.consts.len()))
                .collect()
        };
        let pairs = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
            v.iter().map(|(i, n)| (i.to_string(), *n)).collect()
        };
        assert_eq!(consts("bench::a(consts = (4, 2))"), pairs(&[("a", 2)]));
        let zipped = consts("benches::z(args = [1, 2], consts = [(8, 1), (16, 2)])");
        assert_eq!(zipped, pairs(&[("z_0", 2), ("z_1", 2)]));
        assert_eq!(
            consts("benches::c(consts = [8, 16])"),
            pairs(&[("c_0", 1), ("c_1", 1)])
        );
        let one = consts("benches::o(args = [1, 2, 3], consts = [(5)])");
        assert_eq!(one, pairs(&[("o_0", 1), ("o_1", 1), ("o_2", 1)]));
        let mut configs = Vec::new();
        let odd = attr("benches::x(args = [1, 2, 3], consts = [4, 5])");
        let e = benches_of(&odd, &none, &mut configs).err().unwrap();
        assert!(e.to_string().contains("pair up"), "{e}");
    }

    #[test]
    fn benches_args_must_be_a_list() {
        let mut configs = Vec::new();
        let e = benches_of(
            &attr("benches::x(args = 5)"),
            &Opts::default(),
            &mut configs,
        );
        assert!(e.err().unwrap().to_string().contains("is a list"));
    }
}
