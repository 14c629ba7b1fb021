//! A few of many named in one line: every name where there are few, else
//! the first ones and how many more (`a, b, c and 6 more`). Notes about
//! several benchmarks say them so, wherever they are written.

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

#[cfg(test)]
mod unit {
    use super::first_few;

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
}
