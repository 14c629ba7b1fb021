//! The path the generated code reaches nbench-gungraun by: the name the
//! suite's Cargo.toml gives it (`gungraun`, or `iai_callgrind` for a suite
//! written for gungraun's earlier name).

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// `::gungraun`, `::iai_callgrind`, … as the suite's manifest names it;
/// `::gungraun` where it cannot be read.
pub fn path() -> TokenStream {
    match crate_name("nbench-gungraun") {
        Ok(FoundCrate::Itself) => quote!(crate),
        Ok(FoundCrate::Name(name)) => {
            let ident = syn::Ident::new(&name, Span::call_site());
            quote!(::#ident)
        }
        Err(_) => quote!(::gungraun),
    }
}
