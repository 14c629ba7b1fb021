//! `#[divan::bench]` and `#[divan::bench_group]` for nbench-divan.
//!
//! `#[bench]` keeps the function and adds an entry to nbench-divan's list of
//! benchmarks (a `linkme` slice), whose `register` function registers one
//! nbench benchmark per type, constant and argument the options name. Ids
//! are divan's: the module path below the crate, the function's name (or
//! `name = "…"`), then each type, constant and argument.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, FnArg, GenericParam, Ident, ItemFn, LitStr, Token, Type};

/// One option of the attribute: `key`, `key = expr`, or `types = [T, …]`.
enum Opt {
    Flag(Ident),
    Value(Ident, Expr),
    Types(Vec<Type>),
}

struct Opts(Vec<Opt>);

impl Parse for Opts {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut opts = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.call(syn::ext::IdentExt::parse_any)?;
            if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                if key == "types" {
                    let content;
                    syn::bracketed!(content in input);
                    let types = Punctuated::<Type, Token![,]>::parse_terminated(&content)?;
                    opts.push(Opt::Types(types.into_iter().collect()));
                } else {
                    opts.push(Opt::Value(key, input.parse()?));
                }
            } else {
                opts.push(Opt::Flag(key));
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Opts(opts))
    }
}

/// divan's options that nbench accepts and does not honour: cargo nbench
/// decides sampling.
const UNHONOURED: &[&str] = &[
    "sample_count",
    "sample_size",
    "min_time",
    "max_time",
    "skip_ext_time",
];

/// What the options ask for, sorted out.
#[derive(Default)]
struct Wanted {
    name: Option<Expr>,
    ignore: bool,
    args: Option<Expr>,
    consts: Option<Expr>,
    types: Vec<Type>,
    counters: Vec<Expr>,
    /// `threads`: the thread counts, as a function giving them.
    threads: Option<Tokens>,
    unhonoured: Vec<String>,
}

fn wanted(opts: Opts) -> syn::Result<Wanted> {
    let mut w = Wanted::default();
    for opt in opts.0 {
        match opt {
            Opt::Types(t) => w.types = t,
            Opt::Flag(k) if k == "ignore" => w.ignore = true,
            Opt::Value(k, v) if k == "ignore" => w.ignore = is_true(&v),
            Opt::Value(k, v) if k == "name" => w.name = Some(v),
            Opt::Value(k, v) if k == "args" => w.args = Some(v),
            Opt::Value(k, v) if k == "consts" => w.consts = Some(v),
            Opt::Value(k, Expr::Array(a)) if k == "counters" => {
                w.counters = a.elems.into_iter().collect()
            }
            Opt::Value(k, v) if k == "counters" => w.counters = vec![v],
            Opt::Value(k, v) if k == "bytes_count" => w
                .counters
                .push(syn::parse_quote!(::divan::counter::BytesCount::from(#v))),
            Opt::Value(k, v) if k == "items_count" => w
                .counters
                .push(syn::parse_quote!(::divan::counter::ItemsCount::from(#v))),
            Opt::Value(k, v) if k == "chars_count" => w
                .counters
                .push(syn::parse_quote!(::divan::counter::CharsCount::from(#v))),
            Opt::Flag(k) if k == "threads" => w.threads = Some(thread_counts(None)),
            Opt::Value(k, v) if k == "threads" => w.threads = Some(thread_counts(Some(&v))),
            Opt::Value(k, _) if k == "crate" => {}
            Opt::Flag(k) | Opt::Value(k, _) => {
                let k = k.to_string();
                if UNHONOURED.contains(&k.as_str()) {
                    w.unhonoured.push(k);
                } else {
                    return Err(syn::Error::new(
                        k.span_or_call_site(),
                        format!("nbench-divan does not know the option `{k}`"),
                    ));
                }
            }
        }
    }
    Ok(w)
}

/// `threads`, `threads = true` (all the machine has, written 0 as divan
/// does), `= false` (one), `= N`, or `= LIST` (anything iterable over
/// counts): an expression of type `Option<fn() -> Vec<usize>>`.
fn thread_counts(value: Option<&Expr>) -> Tokens {
    let counts = match value {
        None => quote!(::std::vec![0usize]),
        Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        })) => match b.value {
            true => quote!(::std::vec![0usize]),
            false => quote!(::std::vec![1usize]),
        },
        Some(
            n @ Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(_),
                ..
            }),
        ) => quote!(::std::vec![#n]),
        Some(list) => quote!(::divan::__private::threads_of(#list)),
    };
    quote!(::core::option::Option::Some({
        fn threads() -> ::std::vec::Vec<usize> {
            #counts
        }
        threads as fn() -> ::std::vec::Vec<usize>
    }))
}

/// `threads` as an `Entry` or `Group` field: the counts, or none.
fn threads_field(w: &Wanted) -> Tokens {
    match &w.threads {
        Some(t) => t.clone(),
        None => quote!(::core::option::Option::None),
    }
}

/// A group's `counters` as a `Group` field: a function making them, or none.
fn counters_field(w: &Wanted) -> Tokens {
    if w.counters.is_empty() {
        return quote!(::core::option::Option::None);
    }
    let counters = &w.counters;
    quote!(::core::option::Option::Some({
        fn counters() -> ::std::vec::Vec<::divan::counter::Counter> {
            ::std::vec![#( ::divan::counter::Counter::from(#counters) ),*]
        }
        counters as fn() -> ::std::vec::Vec<::divan::counter::Counter>
    }))
}

trait SpanOr {
    fn span_or_call_site(&self) -> Span;
}

impl SpanOr for String {
    fn span_or_call_site(&self) -> Span {
        Span::call_site()
    }
}

fn is_true(e: &Expr) -> bool {
    matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value)
}

/// `#[divan::bench(…)]` on a function.
#[proc_macro_attribute]
pub fn bench(attr: TokenStream, item: TokenStream) -> TokenStream {
    let opts = syn::parse_macro_input!(attr as Opts);
    let mut f = syn::parse_macro_input!(item as ItemFn);
    match expand(opts, &mut f) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `#[divan::bench_group(…)]` on a module: its benchmarks are named under
/// the module's path as they are anyway; its options are accepted.
#[proc_macro_attribute]
pub fn bench_group(attr: TokenStream, item: TokenStream) -> TokenStream {
    let opts = syn::parse_macro_input!(attr as Opts);
    let module = syn::parse_macro_input!(item as syn::ItemMod);
    match wanted(opts) {
        Ok(w) => {
            let unhonoured = notes(&w);
            let threads = threads_field(&w);
            let counters = counters_field(&w);
            let ident = LitStr::new(&module.ident.to_string(), module.ident.span());
            let name = match &w.name {
                Some(n) => quote!(::core::option::Option::Some(#n)),
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #module
                const _: () = {
                    #[::divan::__private::linkme::distributed_slice(::divan::__private::GROUPS)]
                    #[linkme(crate = ::divan::__private::linkme)]
                    static GROUP: ::divan::__private::Group = ::divan::__private::Group {
                        module: ::core::concat!(::core::module_path!(), "::", #ident),
                        name: #name,
                        unhonoured: &[#(#unhonoured),*],
                        threads: #threads,
                        counters: #counters,
                    };
                };
            }
            .into()
        }
        Err(e) => e.to_compile_error().into(),
    }
}

fn notes(w: &Wanted) -> Vec<LitStr> {
    w.unhonoured
        .iter()
        .map(|k| LitStr::new(k, Span::call_site()))
        .collect()
}

/// How an id names `value`: by `Display` where it has one, else `Debug`
/// (autoref picks the first trait whose impl applies).
fn shown_of(value: Tokens) -> Tokens {
    quote!({
        #[allow(unused_imports)]
        use ::divan::__private::{ByDebug as _, ByDisplay as _};
        (&&::divan::__private::Shown(#value)).shown()
    })
}

/// Whether a parameter is divan's `Bencher`.
fn is_bencher(arg: &FnArg) -> bool {
    let FnArg::Typed(t) = arg else { return false };
    match &*t.ty {
        Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Bencher"),
        _ => false,
    }
}

/// What a benchmark function is: how it is called and what it varies over.
struct Shape<'a> {
    ident: &'a Ident,
    bencher: bool,
    takes_arg: bool,
    has_type: bool,
    has_const: bool,
    w: &'a Wanted,
}

impl Shape<'_> {
    /// The call for one type and constant: timed by `iter`, or handed a
    /// `Bencher`.
    fn call(&self, generic: &Tokens, konst: &Tokens) -> Tokens {
        let ident = self.ident;
        let mut params: Vec<Tokens> = Vec::new();
        if self.has_type {
            params.push(generic.clone());
        }
        if self.has_const {
            params.push(quote!({ #konst }));
        }
        let turbofish = match params.is_empty() {
            true => quote!(),
            false => quote!(::<#(#params),*>),
        };
        let arg = self
            .takes_arg
            .then(|| quote!(::divan::__private::pass(arg)));
        match self.bencher {
            true => quote!(#ident #turbofish (::divan::Bencher::__new(b), #arg)),
            false => quote!(::divan::__private::time(b, || #ident #turbofish (#arg))),
        }
    }

    /// The nbench benchmark's closure: the attribute's counters declared,
    /// then the runner's (which stand over them, as in divan), then the call.
    fn body(&self, generic: &Tokens, konst: &Tokens) -> Tokens {
        let run = self.call(generic, konst);
        let counters = &self.w.counters;
        quote! {
            move |b: &mut ::divan::__private::nbench::Bencher<'_>,
                  runner: &[::divan::counter::Counter]| {
                #( ::divan::__private::count(b, #counters); )*
                ::divan::__private::count_all(b, runner);
                #run
            }
        }
    }

    /// The registration of one type and constant, one per argument if any.
    fn one(
        &self,
        generic: &Tokens,
        shown_type: &Tokens,
        konst: &Tokens,
        shown_const: Tokens,
    ) -> Tokens {
        let body = self.body(generic, konst);
        let Some(args) = &self.w.args else {
            return quote! {
                r.add(&[#shown_type, #shown_const, ::core::option::Option::None], #body);
            };
        };
        let shown_arg = shown_of(quote!(arg));
        quote! {
            for arg in ::core::iter::IntoIterator::into_iter(#args) {
                let arg: &'static _ = ::std::boxed::Box::leak(::std::boxed::Box::new(arg));
                let shown_arg = #shown_arg;
                r.add(&[#shown_type, #shown_const, ::core::option::Option::Some(&shown_arg)], #body);
            }
        }
    }

    /// Each type as written and as an id names it (one "no type" without).
    fn types(&self) -> Vec<(Tokens, Tokens)> {
        if !self.has_type {
            return vec![(quote!(), quote!(::core::option::Option::None))];
        }
        (self.w.types.iter())
            .map(|t| {
                let shown =
                    LitStr::new(&quote!(#t).to_string().replace(' ', ""), Span::call_site());
                (quote!(#t), quote!(::core::option::Option::Some(#shown)))
            })
            .collect()
    }

    /// Every registration: per type, per constant (a literal list, or a
    /// named array by index, up to 64), per argument.
    fn registrations(&self) -> Vec<Tokens> {
        let mut out = Vec::new();
        let some = |v: Tokens| quote!(::core::option::Option::Some(&#v));
        for (generic, shown_type) in &self.types() {
            match (&self.w.consts, self.has_const) {
                (Some(Expr::Array(a)), true) => {
                    for c in &a.elems {
                        let shown = some(shown_of(quote!(&#c)));
                        out.push(self.one(generic, shown_type, &quote!(#c), shown));
                    }
                }
                (Some(path), true) => {
                    for i in 0..64usize {
                        let konst = quote!(#path[if #i < #path.len() { #i } else { 0 }]);
                        let shown = some(shown_of(quote!(&#path[#i])));
                        let reg = self.one(generic, shown_type, &konst, shown);
                        out.push(quote!(if #i < #path.len() { #reg }));
                    }
                }
                _ => out.push(self.one(
                    generic,
                    shown_type,
                    &quote!(),
                    quote!(::core::option::Option::None),
                )),
            }
        }
        out
    }
}

fn expand(opts: Opts, f: &mut ItemFn) -> syn::Result<Tokens> {
    let mut w = wanted(opts)?;
    // `#[ignore]` under the attribute, as divan reads it.
    let before = f.attrs.len();
    f.attrs.retain(|a| !a.path().is_ident("ignore"));
    w.ignore |= f.attrs.len() != before;
    let inputs: Vec<&FnArg> = f.sig.inputs.iter().collect();
    let bencher = inputs.first().is_some_and(|a| is_bencher(a));
    let takes_arg = inputs.len() > usize::from(bencher);
    if takes_arg && w.args.is_none() {
        return Err(syn::Error::new_spanned(
            &f.sig,
            "a benchmark with an argument needs `args = …`",
        ));
    }
    let params = &f.sig.generics.params;
    let shape = Shape {
        ident: &f.sig.ident,
        bencher,
        takes_arg,
        has_type: params.iter().any(|p| matches!(p, GenericParam::Type(_))),
        has_const: params.iter().any(|p| matches!(p, GenericParam::Const(_))),
        w: &w,
    };
    let registrations = shape.registrations();
    let ident = &f.sig.ident;
    let name = match &w.name {
        Some(n) => quote!(#n),
        None => {
            let s = LitStr::new(&ident.to_string(), ident.span());
            quote!(#s)
        }
    };
    let ignored = w.ignore;
    let unhonoured = notes(&w);
    let threads = threads_field(&w);
    let register = format_ident!("__nbench_divan_register_{}", ident);
    Ok(quote! {
        #f
        #[doc(hidden)]
        #[allow(non_snake_case)]
        fn #register(r: &mut ::divan::__private::Registrar<'_>) {
            #(#registrations)*
        }
        const _: () = {
            #[::divan::__private::linkme::distributed_slice(::divan::__private::BENCHES)]
            #[linkme(crate = ::divan::__private::linkme)]
            static ENTRY: ::divan::__private::Entry = ::divan::__private::Entry {
                module: ::core::module_path!(),
                name: #name,
                ignored: #ignored,
                unhonoured: &[#(#unhonoured),*],
                threads: #threads,
                register: #register,
            };
        };
    })
}
