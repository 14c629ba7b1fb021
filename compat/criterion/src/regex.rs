//! The regular expressions criterion's filters are: enough of their syntax
//! for filters (literals, `.`, classes, `\d \w \s`, groups, `|`, `^ $`,
//! `* + ? {m,n}`), matched anywhere in an id by backtracking. nbench has no
//! dependencies, so neither has this.

/// A parsed expression.
#[derive(Debug)]
pub(crate) struct Regex(Node);

#[derive(Debug)]
enum Node {
    Char(char),
    Any,
    /// Ranges, negated or not.
    Class(Vec<(char, char)>, bool),
    Start,
    End,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, usize, Option<usize>),
}

impl Regex {
    /// Parses `pattern`; `Err` says what is wrong with it.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut p = Parser { chars, at: 0 };
        let node = p.alternation()?;
        match p.peek() {
            None => Ok(Regex(node)),
            Some(c) => Err(format!("unexpected '{c}' at {}", p.at)),
        }
    }

    /// Whether the expression matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        (0..=chars.len()).any(|start| matches(&self.0, &chars, start, &mut |_| true))
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += 1;
        c
    }

    fn alternation(&mut self) -> Result<Node, String> {
        let mut arms = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.at += 1;
            arms.push(self.concat()?);
        }
        Ok(if arms.len() == 1 {
            arms.pop().expect("one arm")
        } else {
            Node::Alt(arms)
        })
    }

    fn concat(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn atom(&mut self) -> Result<Node, String> {
        let at = self.at;
        Ok(match self.next().expect("concat peeked a character") {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '(' => {
                if self.chars[self.at..].starts_with(&['?', ':']) {
                    self.at += 2;
                }
                let inner = self.alternation()?;
                if self.next() != Some(')') {
                    return Err(format!("unclosed group opened at {at}"));
                }
                inner
            }
            '[' => self.class(at)?,
            '\\' => self.escape()?,
            c @ ('*' | '+' | '?' | '{') => {
                return Err(format!("nothing to repeat before '{c}' at {at}"));
            }
            c => Node::Char(c),
        })
    }

    fn escape(&mut self) -> Result<Node, String> {
        let class = |ranges: &[(char, char)], negated| Node::Class(ranges.to_vec(), negated);
        Ok(match self.next() {
            None => return Err("a trailing backslash".to_owned()),
            Some('d') => class(DIGIT, false),
            Some('D') => class(DIGIT, true),
            Some('w') => class(WORD, false),
            Some('W') => class(WORD, true),
            Some('s') => class(SPACE, false),
            Some('S') => class(SPACE, true),
            Some('t') => Node::Char('\t'),
            Some('n') => Node::Char('\n'),
            Some(c) => Node::Char(c),
        })
    }

    fn class(&mut self, at: usize) -> Result<Node, String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = match self.next() {
                None => return Err(format!("unclosed class opened at {at}")),
                Some(']') if !first => break,
                Some('\\') => match self.escape()? {
                    Node::Class(more, false) => {
                        ranges.extend(more);
                        first = false;
                        continue;
                    }
                    Node::Char(c) => c,
                    _ => return Err(format!("a negated escape inside the class at {at}")),
                },
                Some(c) => c,
            };
            first = false;
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&e| e != ']') {
                let end = self.chars[self.at + 1];
                self.at += 2;
                if end < c {
                    return Err(format!("the range {c}-{end} runs backwards"));
                }
                ranges.push((c, end));
            } else {
                ranges.push((c, c));
            }
        }
        Ok(Node::Class(ranges, negated))
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.counted(atom),
            _ => return Ok(atom),
        };
        self.at += 1;
        self.lazy_mark();
        Ok(Node::Repeat(Box::new(atom), min, max))
    }

    /// `{n}`, `{n,}`, `{n,m}`; a `{` that starts none of them is a literal.
    fn counted(&mut self, atom: Node) -> Result<Node, String> {
        let rest: String = self.chars[self.at + 1..].iter().collect();
        let Some(close) = rest.find('}') else {
            return Ok(atom_then_literal(self, atom));
        };
        let body = &rest[..close];
        let number = |s: &str| s.trim().parse::<usize>().ok();
        let bounds = match body.split_once(',') {
            None => number(body).map(|n| (n, Some(n))),
            Some((lo, "")) => number(lo).map(|n| (n, None)),
            Some((lo, hi)) => number(lo).zip(number(hi)).map(|(l, h)| (l, Some(h))),
        };
        let Some((min, max)) = bounds else {
            return Ok(atom_then_literal(self, atom));
        };
        if max.is_some_and(|m| m < min) {
            return Err(format!("the repetition {{{body}}} runs backwards"));
        }
        self.at += 1 + body.chars().count() + 1;
        self.lazy_mark();
        Ok(Node::Repeat(Box::new(atom), min, max))
    }

    /// A lazy quantifier's `?`: taken, and matched greedily (a filter only
    /// asks whether there is a match, not which).
    fn lazy_mark(&mut self) {
        if self.peek() == Some('?') {
            self.at += 1;
        }
    }
}

/// `atom` followed by a literal `{` (one that starts no repetition).
fn atom_then_literal(p: &mut Parser, atom: Node) -> Node {
    p.at += 1;
    Node::Concat(vec![atom, Node::Char('{')])
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
const SPACE: &[(char, char)] = &[(' ', ' '), ('\t', '\r')];

/// Whether `node` matches `text` from `at` such that `then` accepts where it ends.
fn matches(node: &Node, text: &[char], at: usize, then: &mut dyn FnMut(usize) -> bool) -> bool {
    let one = |ok: bool| ok.then_some(at + 1);
    let single = match node {
        Node::Char(c) => one(text.get(at) == Some(c)),
        Node::Any => one(at < text.len() && text[at] != '\n'),
        Node::Class(ranges, negated) => one(text
            .get(at)
            .is_some_and(|c| ranges.iter().any(|(lo, hi)| (lo..=hi).contains(&c)) != *negated)),
        Node::Start => return at == 0 && then(at),
        Node::End => return at == text.len() && then(at),
        Node::Concat(items) => return sequence(items, text, at, then),
        Node::Alt(arms) => return arms.iter().any(|arm| matches(arm, text, at, then)),
        Node::Repeat(inner, min, max) => return repeat(inner, *min, *max, text, at, then),
    };
    single.is_some_and(then)
}

fn sequence(items: &[Node], text: &[char], at: usize, then: &mut dyn FnMut(usize) -> bool) -> bool {
    match items.split_first() {
        None => then(at),
        Some((first, rest)) => matches(first, text, at, &mut |next| {
            sequence(rest, text, next, then)
        }),
    }
}

/// `inner` at least `min` and at most `max` times, as many as can be first.
fn repeat(
    inner: &Node,
    min: usize,
    max: Option<usize>,
    text: &[char],
    at: usize,
    then: &mut dyn FnMut(usize) -> bool,
) -> bool {
    if max == Some(0) {
        return min == 0 && then(at);
    }
    let more = matches(inner, text, at, &mut |next| {
        // An empty match does not repeat (it would loop forever).
        next != at
            && repeat(
                inner,
                min.saturating_sub(1),
                max.map(|m| m - 1),
                text,
                next,
                then,
            )
    });
    more || (min == 0 && then(at))
}

#[cfg(test)]
mod tests {
    use super::Regex;

    fn is(pattern: &str, text: &str) -> bool {
        Regex::new(pattern).unwrap().is_match(text)
    }

    #[test]
    fn the_syntax_filters_use() {
        assert!(is("u64", "fmt/u64/100"));
        assert!(is("^fmt/", "fmt/u64") && !is("^u64", "fmt/u64"));
        assert!(is("/100$", "fmt/u64/100") && !is("/10$", "fmt/u64/100"));
        assert!(is("fmt/(u8|u64)/1$", "fmt/u64/1") && !is("fmt/(u8|u16)/1$", "fmt/u64/1"));
        assert!(is("a.c", "abc") && !is("a.c", "ac"));
        assert!(is("^a*$", "") && is("^a+b?$", "aaab") && !is("^a+$", ""));
        assert!(is("^[a-c]{2,3}$", "abc") && !is("^[a-c]{2,3}$", "abcd"));
        assert!(is("^x{2}$", "xx") && !is("^x{2}$", "x") && is("^x{1,}$", "xxx"));
        assert!(is(r"\d+/\w+", "100/abc") && !is(r"^\d", "a1"));
        assert!(is("[^/]+$", "a/b") && is(r"\.", "1.5") && !is(r"\.", "15"));
        assert!(is("(?:ab)+c", "ababc") && is("x{", "x{") && is("^(a|)b$", "b"));
        assert!(is("^(a*)*$", "aaaa"));
        assert!(is(".*?x", "abx"));
    }

    #[test]
    fn malformed_expressions_say_what_is_wrong() {
        for (bad, why) in [
            ("(", "unclosed group"),
            ("[a", "unclosed class"),
            ("*a", "nothing to repeat"),
            ("a)", "unexpected ')'"),
            ("[z-a]", "runs backwards"),
            ("a{3,1}", "runs backwards"),
            ("a\\", "trailing backslash"),
        ] {
            let e = Regex::new(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
