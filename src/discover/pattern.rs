//! `--bench NAME` as cargo takes it: a target's name, or a Unix glob
//! pattern of names (`--bench 'parse_*'`), `*` for any run of characters
//! and `?` for any one.

/// Whether `--bench` value `pattern` names target `name`.
pub fn names(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Where the last `*` stood in the pattern and in the name, to go back to.
    let (mut pi, mut ni, mut star) = (0, 0, None);
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                // The `*` takes one more character.
                Some((sp, sn)) => {
                    star = Some((sp, sn + 1));
                    pi = sp + 1;
                    ni = sn + 1;
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_or_a_pattern_names_targets_as_cargo_does() {
        assert!(names("parse", "parse"));
        assert!(!names("parse", "parser"));
        assert!(names("parse*", "parser"));
        assert!(names("parse*", "parse"));
        assert!(names("*_bench_*", "test_bin_bench_config"));
        assert!(!names("*_bench_*", "test_bin_bench"));
        assert!(names("b?t", "bit"));
        assert!(!names("b?t", "bt"));
        assert!(names("*", ""));
        assert!(names("a*b*c", "aXbYbZc"));
        assert!(!names("a*b*c", "aXbYbZ"));
    }
}
