//! What cargo said when it could not read the workspace, made one line and a hint.

/// cargo's error as one line, after its own `error: ` (which
/// cargo_metadata's prefix comes before): its first paragraph, the lines
/// after a colon joined by commas, then each `Caused by:`; and the other
/// paragraphs, cargo's advice, if any. A package that believes it is in a
/// workspace that does not list it (http's `benches/`) is told to join
/// the workspace's members or to add an empty `[workspace]`.
pub(super) fn cargo_said(message: &str) -> (String, Option<String>) {
    let from_cargo = (message.split_once("\n").map_or(message, |(first, _)| first))
        .rfind("error: ")
        .map_or(message, |at| &message[at + "error: ".len()..]);
    let (mut said, mut advice) = (String::new(), Vec::new());
    for paragraph in from_cargo.split("\n\n") {
        let lines: Vec<String> = (paragraph.lines())
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect();
        let Some((first, rest)) = lines.split_first() else {
            continue;
        };
        if said.is_empty() {
            said = first.trim_end_matches(':').to_owned();
            if !rest.is_empty() {
                said = format!("{said}: {}", rest.join(", "));
            }
        } else if first == "Caused by:" {
            for cause in rest {
                said = format!("{said}: {cause}");
            }
        } else {
            advice.extend(lines);
        }
    }
    // Advice lines are sentences, or a sentence ending in a path.
    let advice = advice
        .iter()
        .fold(String::new(), |all, line| match all.chars().last() {
            None => line.clone(),
            Some('.' | '!' | '?') => format!("{all} {line}"),
            Some(_) => format!("{all}; {line}"),
        });
    (said, (!advice.is_empty()).then_some(advice))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_s_error_reads_on_one_line_and_its_advice_becomes_the_hint() {
        // As cargo said it of http's `benches/` package.
        let http = "`cargo metadata` exited with an error: error: current package believes \
                    it's in a workspace when it's not:\ncurrent:   /w/benches/Cargo.toml\n\
                    workspace: /w/Cargo.toml\n\nthis may be fixable by adding `benches` to \
                    the `workspace.members` array of the manifest located at: /w/Cargo.toml\n\
                    Alternatively, to keep it out of the workspace, add an empty \
                    `[workspace]` table to the package's manifest.\n";
        let (said, advice) = cargo_said(http);
        assert_eq!(
            said,
            "current package believes it's in a workspace when it's not: current: \
             /w/benches/Cargo.toml, workspace: /w/Cargo.toml"
        );
        let advice = advice.unwrap();
        assert!(
            advice.starts_with("this may be fixable by adding `benches`")
                && advice.contains("/w/Cargo.toml; Alternatively, to keep it out")
                && advice.ends_with("an empty `[workspace]` table to the package's manifest."),
            "{advice}"
        );
        let caused = "`cargo metadata` exited with an error: error: failed to parse manifest \
                      at `/w/Cargo.toml`\n\nCaused by:\n  invalid type: integer `1`, \
                      expected a string\n";
        assert_eq!(
            cargo_said(caused),
            (
                "failed to parse manifest at `/w/Cargo.toml`: invalid type: integer `1`, \
                 expected a string"
                    .to_owned(),
                None
            )
        );
    }
}
