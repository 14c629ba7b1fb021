//! Parameter lists for families: powers of a multiplier between two bounds, evenly spaced values, products of lists, type labels.

use std::fmt::Display;

/// `lo`, then every power of `multiplier` strictly between `lo` and `hi`, then
/// `hi`: Google Benchmark's `Range`. With multiplier 8, `range(8, 8192, 8)` is
/// 8, 64, 512, 4096, 8192.
///
/// ```
/// use nbench::params::range;
/// assert_eq!(range(8, 8 << 10, 8), [8, 64, 512, 4096, 8192]);
/// assert_eq!(range(1, 100, 10), [1, 10, 100]);
/// assert_eq!(range(5, 5, 8), [5]);
/// ```
///
/// # Panics
/// If `lo > hi` or `multiplier < 2`: a family's definition is wrong, and the
/// bench binary says so when it starts.
pub fn range(lo: u64, hi: u64, multiplier: u64) -> Vec<u64> {
    assert!(
        lo <= hi,
        "range({lo}, {hi}): the low bound is above the high one"
    );
    assert!(
        multiplier >= 2,
        "range(…, multiplier {multiplier}): the multiplier must be at least 2"
    );
    let mut out = vec![lo];
    let mut power: u64 = 1;
    while let Some(next) = power.checked_mul(multiplier) {
        power = next;
        if power >= hi {
            break;
        }
        if power > lo {
            out.push(power);
        }
    }
    if hi != lo {
        out.push(hi);
    }
    out
}

/// `lo`, `lo + step`, … up to and including `hi` if a step lands on it:
/// Google Benchmark's `DenseRange`.
///
/// ```
/// use nbench::params::dense_range;
/// assert_eq!(dense_range(0, 10, 5), [0, 5, 10]);
/// assert_eq!(dense_range(1, 10, 4), [1, 5, 9]);
/// ```
///
/// # Panics
/// If `lo > hi` or `step` is 0.
pub fn dense_range(lo: u64, hi: u64, step: u64) -> Vec<u64> {
    assert!(
        lo <= hi,
        "dense_range({lo}, {hi}): the low bound is above the high one"
    );
    assert!(
        step > 0,
        "dense_range(…, step 0): the step must be positive"
    );
    (lo..=hi)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .collect()
}

/// Lists whose product is a parameter list: a pair or a triple of lists
/// gives every combination of their values, the last list varying fastest,
/// each labelled `a/b` (see [`Group::args_product`](crate::Group::args_product)).
pub trait Product {
    /// One combination: a tuple of the lists' values.
    type Item;
    /// Every combination with its label parts, in order.
    fn combinations(self) -> Vec<(Self::Item, Vec<String>)>;
}

fn labelled<T: Display>(values: impl IntoIterator<Item = T>) -> Vec<(T, String)> {
    values
        .into_iter()
        .map(|v| {
            let label = v.to_string();
            (v, label)
        })
        .collect()
}

impl<IA, IB> Product for (IA, IB)
where
    IA: IntoIterator,
    IB: IntoIterator,
    IA::Item: Display + Clone,
    IB::Item: Display + Clone,
{
    type Item = (IA::Item, IB::Item);
    fn combinations(self) -> Vec<(Self::Item, Vec<String>)> {
        let (a, b) = (labelled(self.0), labelled(self.1));
        let mut out = Vec::with_capacity(a.len() * b.len());
        for (x, lx) in &a {
            for (y, ly) in &b {
                out.push(((x.clone(), y.clone()), vec![lx.clone(), ly.clone()]));
            }
        }
        out
    }
}

impl<IA, IB, IC> Product for (IA, IB, IC)
where
    IA: IntoIterator,
    IB: IntoIterator,
    IC: IntoIterator,
    IA::Item: Display + Clone,
    IB::Item: Display + Clone,
    IC::Item: Display + Clone,
{
    type Item = (IA::Item, IB::Item, IC::Item);
    fn combinations(self) -> Vec<(Self::Item, Vec<String>)> {
        let pairs = (self.0, self.1).combinations();
        let c = labelled(self.2);
        let mut out = Vec::with_capacity(pairs.len() * c.len());
        for ((x, y), labels) in pairs {
            for (z, lz) in &c {
                let mut l = labels.clone();
                l.push(lz.clone());
                out.push(((x.clone(), y.clone(), z.clone()), l));
            }
        }
        out
    }
}

/// A type's name as benchmark ids show it: `std::any::type_name` without
/// module paths (`Vec<String>`, not `alloc::vec::Vec<alloc::string::String>`)
/// or spaces after commas, so that an id is one word on a command line.
///
/// ```
/// use nbench::params::type_label;
/// assert_eq!(type_label::<u32>(), "u32");
/// assert_eq!(type_label::<Vec<String>>(), "Vec<String>");
/// assert_eq!(type_label::<std::collections::HashMap<u8, [u16; 4]>>(), "HashMap<u8,[u16;4]>");
/// ```
pub fn type_label<T: ?Sized>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for c in full.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
            continue;
        }
        out.push_str(word.rsplit("::").next().unwrap_or(""));
        word.clear();
        if !(c == ' ' && (out.ends_with(',') || out.ends_with(';'))) {
            out.push(c);
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_at_the_edges() {
        assert_eq!(range(0, 1, 8), [0, 1]);
        assert_eq!(range(10, 1000, 8), [10, 64, 512, 1000]);
        assert_eq!(range(1, u64::MAX, 1 << 32), [1, 1 << 32, u64::MAX]);
        assert_eq!(dense_range(3, 3, 7), [3]);
        assert_eq!(
            dense_range(u64::MAX - 1, u64::MAX, 1),
            [u64::MAX - 1, u64::MAX]
        );
    }

    #[test]
    fn products_vary_the_last_list_fastest() {
        let p = ([1, 2], ["x", "y"]).combinations();
        let labels: Vec<String> = p.iter().map(|(_, l)| l.join("/")).collect();
        assert_eq!(labels, ["1/x", "1/y", "2/x", "2/y"]);
        assert_eq!(p[1].0, (1, "y"));
        let t = ([1], [true, false], ['a', 'b']).combinations();
        assert_eq!(t.len(), 4);
        assert_eq!(t[3].0, (1, false, 'b'));
        assert_eq!(t[3].1, ["1", "false", "b"]);
        assert!(([0u8; 0], [1]).combinations().is_empty());
    }

    #[test]
    fn type_labels_drop_module_paths_only() {
        assert_eq!(type_label::<str>(), "str");
        assert_eq!(type_label::<&'static [u8]>(), "&[u8]");
        assert_eq!(
            type_label::<Option<std::rc::Rc<(i8, String)>>>(),
            "Option<Rc<(i8,String)>>"
        );
        assert_eq!(type_label::<dyn Fn(u8) -> u8>(), "dyn Fn(u8) -> u8");
    }

    #[test]
    #[should_panic(expected = "the multiplier must be at least 2")]
    fn a_multiplier_of_one_is_refused() {
        range(1, 10, 1);
    }
}
