//! A few of many named in one line: every name where there are few, else
//! the first ones and how many more (`a, b, c and 6 more`). Notes about
//! several benchmarks say them so, wherever they are written; those about
//! several targets for one reason are grouped by it first.

/// Names given in full before the rest are counted; a list one longer is
/// given whole, since "and 1 more" saves nothing.
pub const NAMED: usize = 3;

/// `names` in one line: `a`, `a, b`, `a, b, c, d`, `a, b, c and 2 more`.
pub fn first_few(names: &[String]) -> String {
    if names.len() <= NAMED + 1 {
        return names.join(", ");
    }
    let more = names.len() - NAMED;
    format!("{} and {more} more", names[..NAMED].join(", "))
}

/// The names of `named` (a reason and a name each) grouped by reason, in
/// the order each reason first comes: one line for the targets left out,
/// or failed, for the same reason.
pub fn by_reason<'a>(
    named: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'a str, Vec<String>)> {
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for (reason, name) in named {
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, names)) => names.push(name.to_owned()),
            None => groups.push((reason, vec![name.to_owned()])),
        }
    }
    groups
}

#[cfg(test)]
mod unit {
    use super::{by_reason, first_few};

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("b{i}")).collect()
    }

    #[test]
    fn a_few_are_named_and_the_rest_counted() {
        assert_eq!(first_few(&names(0)), "");
        assert_eq!(first_few(&names(1)), "b0");
        assert_eq!(first_few(&names(4)), "b0, b1, b2, b3");
        assert_eq!(first_few(&names(5)), "b0, b1, b2 and 2 more");
        assert_eq!(first_few(&names(84)), "b0, b1, b2 and 81 more");
    }

    #[test]
    fn names_are_grouped_by_reason_in_the_order_reasons_first_come() {
        let named = [("x", "a"), ("y", "b"), ("x", "c")];
        let want = [
            ("x", vec!["a".to_owned(), "c".to_owned()]),
            ("y", vec!["b".to_owned()]),
        ];
        assert_eq!(by_reason(named), want);
    }
}
