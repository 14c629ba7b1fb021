//! What is said of a revision as it is built: its notes, and its errors
//! where what the command selects is not there to run. The working tree
//! built as a commit is named as such ([`snapshot::named`]).

use crate::build::snapshot;
use crate::build::swap::swap_said;
use crate::error::Error;
use crate::model::context::SwapRecord;
use std::path::Path;

/// The note for revision `rev`'s baseline `name`, reused as it was saved:
/// in `one` link layout where its layouts could not be built then.
pub(super) fn reused(rev: &str, short: &str, name: &str, one: bool) -> String {
    let who = snapshot::named(rev, short);
    let layouts = match one {
        true => format!(
            ", in one link layout (its layouts could not be built then; `cargo nbench baseline \
             delete {name}` builds it again)"
        ),
        false => String::new(),
    };
    format!("{who}: baseline `{name}`, already built{layouts}")
}

/// Revision `rev` has bench targets for this command, and each was left
/// out with a note saying why (a feature it requires is off).
pub(super) fn all_left_out(rev: &str, short: &str) -> Error {
    Error::Revision {
        message: format!(
            "{}: every bench target selected there was left out, for the reason its note \
             above gives",
            snapshot::named_revision(rev, short)
        ),
        hint: match rev == snapshot::CALLED {
            // Nothing else to compare with.
            true => {
                "do what the note asks (a feature named with --features is on in every \
                     build this command makes)"
            }
            false => {
                "do what the note asks (a feature, with --features, builds both sides \
                      with it), or compare with a revision whose targets run"
            }
        }
        .into(),
    }
}

/// What is said of revision `rev` where it has no bench target.
pub(super) fn nothing_there(rev: &str, short: &str) -> String {
    let who = snapshot::named(rev, short);
    format!(
        "{who} has no bench target for this command to run: every benchmark \
         is new against it"
    )
}

/// Package `package` is at revision `rev`, its manifest at `at`, and its
/// workspace there leaves it out (http's `benches`).
pub(super) fn not_a_member(package: &str, at: &Path, (rev, short): (&str, &str)) -> Error {
    let who = snapshot::named(rev, short);
    Error::Revision {
        message: format!(
            "package `{package}` is at {who}, in `{}`, but the workspace there \
             does not take it as a member",
            at.display()
        ),
        hint: "cargo builds only a workspace's members: compare with a revision whose \
               workspace takes it, or save a baseline with --save-baseline and compare with \
               --compare"
            .into(),
    }
}

/// The note for revision `rev` built with the front ends `swap` put in
/// its libraries' places.
pub(super) fn swap_note(rev: &str, short: &str, swap: &SwapRecord) -> String {
    let who = snapshot::named(rev, short);
    let (uses, places) = swap_said(swap);
    let kept = match swap.kept.is_empty() {
        true => String::new(),
        false => format!(
            "; they ask for {}, which {uses} turned on for the whole build",
            swap.kept.join(", ")
        ),
    };
    format!(
        "{who} uses {uses}: building it with {places} ({}){kept}",
        swap.manifests.join(", ")
    )
}
