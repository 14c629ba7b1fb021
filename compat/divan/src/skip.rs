//! Benchmarks the runner leaves out: `skip_exact` and `skip_regex`.

use regex_lite::Regex;

/// One rule leaving benchmarks out, matched against a benchmark's id
/// before any `::t=N` (divan's path: `module::function::argument`).
#[derive(Debug, Clone)]
pub enum Skip {
    Exact(String),
    Regex(Regex),
}

impl Skip {
    pub fn leaves_out(&self, id: &str) -> bool {
        match self {
            Skip::Exact(exact) => exact == id,
            Skip::Regex(regex) => regex.is_match(id),
        }
    }
}

/// What `skip_regex` takes: a pattern as text, or one already compiled.
pub trait IntoRegex {
    /// The regular expression, or why the text is none.
    fn into_regex(self) -> Result<Regex, String>;
}

impl IntoRegex for Regex {
    fn into_regex(self) -> Result<Regex, String> {
        Ok(self)
    }
}

impl IntoRegex for &str {
    fn into_regex(self) -> Result<Regex, String> {
        Regex::new(self).map_err(|e| {
            let why = e.to_string();
            let why = why.lines().last().unwrap_or_default().trim().to_owned();
            format!("`{self}` is not a regular expression ({why})")
        })
    }
}

impl IntoRegex for String {
    fn into_regex(self) -> Result<Regex, String> {
        self.as_str().into_regex()
    }
}

impl IntoRegex for &String {
    fn into_regex(self) -> Result<Regex, String> {
        self.as_str().into_regex()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_takes_the_whole_id_and_a_pattern_any_part() {
        let exact = Skip::Exact("add".into());
        assert!(exact.leaves_out("add"));
        assert!(!exact.leaves_out("add_many"));
        let pattern = Skip::Regex("(add|sub)$".into_regex().unwrap());
        assert!(pattern.leaves_out("math::add"));
        assert!(!pattern.leaves_out("math::add_many"));
    }

    #[test]
    fn a_broken_pattern_says_what_and_why() {
        let fault = "(add".into_regex().unwrap_err();
        assert!(
            fault.starts_with("`(add` is not a regular expression ("),
            "{fault}"
        );
        assert!(!fault.contains('\n'), "{fault}");
    }
}
