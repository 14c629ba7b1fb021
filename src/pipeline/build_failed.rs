//! Why a revision did not build, said as one line and what to do.

use crate::build::lockfile::Carried;
use crate::build::snapshot;
use crate::build::swap::swap_said;
use crate::build::swap_failure::{
    dependency_not_got, failed_build_script, failed_dependency, failed_without_front_end,
    feature_not_had, front_end_not_got, item_crate, missing_item, names_another_crate,
};
use crate::build::untracked::unreadable;
use crate::error::Error;
use crate::model::context::SwapRecord;
use std::path::Path;

/// Why revision `rev` failed to build (`why`, cargo's first error and the
/// unit it failed in): cargo could not get a dependency; built with
/// nbench's front end in its library's place (`swap`), the suite uses
/// something the front end lacks; a build script of the revision's own
/// (in `checkout`) failed as it ran; or its own code does not build (with
/// dependencies newer than it was written for, where it keeps no lock
/// file and took the working tree's, `carried`).
pub(super) fn build_failed(
    rev: &str,
    short: &str,
    why: &str,
    swap: Option<&SwapRecord>,
    (checkout, carried): (&Path, Option<&Carried>),
) -> Error {
    let swapped = swap.and_then(|swap| swap_failed(rev, short, why, swap));
    if let Some(e) = swapped {
        return e;
    }
    let called = snapshot::named_revision(rev, short);
    if let Some(package) = dependency_not_got(why) {
        return Error::RevisionBuild {
            message: format!("{called}: cargo could not get `{package}`"),
            hint: format!(
                "cargo's output is above, each line marked [{rev}]; the revision builds where \
                 cargo can reach `{package}`'s source (the network, or cargo's cache with \
                 --offline)"
            ),
        };
    }
    // The checkout's own packages, said by their folders in it (none for its root).
    let root = checkout.display().to_string();
    let own_script = why.contains(&root) && failed_build_script(why).is_some();
    let why = (why.replace(&format!(" ({root})`"), "`"))
        .replace(&format!("{root}{}", std::path::MAIN_SEPARATOR), "");
    // Whether the front end is to blame.
    let front_ends =
        |swap: &&SwapRecord| !failed_without_front_end(&why) && !names_another_crate(&why, swap);
    match swap.filter(front_ends) {
        Some(swap) => Error::Swapped {
            message: format!(
                "{called} does not build with {}{}{why}",
                swap_said(swap).1,
                missing_item(&why).map_or(String::new(), |item| format!(": it lacks `{item}`"))
            ),
            hint: format!(
                "its suite uses something nbench's front end does not have (the compiler's \
                 output is above, each line marked [{rev}]); compare with a revision whose \
                 suite builds"
            ),
        },
        None => {
            // A dependency's item, where the lock file took a version of it.
            let moved =
                item_crate(&why).filter(|k| carried.is_some_and(|c| c.sourced(checkout, k)));
            Error::RevisionBuild {
                message: format!("{called} failed to build{why}"),
                hint: own_failure_hint(rev, &why, own_script, moved),
            }
        }
    }
}

/// What to do about revision `rev`'s own failed build, whose reason is
/// `why`: a build script of its own failed as it ran (`own_script`); an
/// item of crate `moved` is missing where it keeps no lock file; its code
/// reads a file that its checkout lacks and the working tree could not give
/// ([`copy_in`]); a dependency's code failed, or its build script as it
/// ran; else its code and this toolchain.
fn own_failure_hint(rev: &str, why: &str, own_script: bool, moved: Option<&str>) -> String {
    let shown = format!("its build output is above, each line marked [{rev}]");
    if let Some(file) = unreadable(why) {
        return format!(
            "{shown}; the revision is built in a checkout of what git holds at it, and `{file}` \
             was not there; a file git does not track is taken from the working tree where it \
             is there (this one is not): compare with a revision that has it"
        );
    }
    // compact_str's workspace: an example's features and the newest diesel
    // broke compact_str 0.9.1, which the suite's package never asked for.
    if let Some(dependency) = failed_dependency(why).filter(|_| !own_script) {
        return format!(
            "{shown}; the code that failed is {dependency}'s, as this build set it up: with \
             the versions the lock file gave (or the newest, where there is none) and the \
             features every package cargo selected asks of it (by default, all the \
             workspace's members): --package with the suite's package narrows them"
        );
    }
    // rust_decimal's dev-dependency diesel, with MySQL, needs libmysqlclient.
    if let Some(package) = failed_build_script(why).filter(|_| !own_script) {
        return format!(
            "{shown}; `{package}` is a dependency, and its build script looks for something on \
             this machine (a system library or tool, as its output says) that is not here: \
             install it, or leave out the package that depends on `{package}` (--package, \
             --features)"
        );
    }
    match (own_script, moved) {
        (true, _) => format!(
            "{shown}; the revision is built in a checkout of what git holds at it, without \
             files the working tree has that git does not track (ones a setup step makes)"
        ),
        (false, Some(krate)) => format!(
            "{shown}; it keeps no Cargo.lock, so its dependencies took the working tree's \
             versions or the newest its manifests allow, and `{krate}` has changed since it was \
             written: compare with a revision that builds so"
        ),
        (false, None) if rev == snapshot::CALLED => format!(
            "{shown}; its code does not build with this toolchain: mend what the error names \
             and run again"
        ),
        // minijinja's f0fda005 calls a function its next commit adds.
        (false, None) => format!(
            "{shown}; its own code does not build with this toolchain, or not on its own (a \
             commit inside a series may need the next): compare with a revision that builds"
        ),
    }
}

/// Why a revision built with nbench's front end in its library's place
/// failed, where the front end is to blame: cargo could not get it, or the
/// suite asks it for a feature it lacks.
fn swap_failed(rev: &str, short: &str, why: &str, swap: &SwapRecord) -> Option<Error> {
    let called = snapshot::named_revision(rev, short);
    if let Some((package, feature)) = feature_not_had(why, swap) {
        return Some(Error::Swapped {
            message: format!(
                "{called}: its manifests ask {package} for feature \
                 `{feature}`, which it does not have"
            ),
            hint: format!(
                "{package} accepts the public features of the library it stands in for, not \
                 this one; cargo's output, above with each line marked [{rev}], names the \
                 package that asks"
            ),
        });
    }
    if let Some(front) = front_end_not_got(why, swap) {
        let from = (swap.libraries.iter().zip(&swap.dependencies))
            .find(|(l, _)| *l == front.library)
            .map_or(String::new(), |(_, d)| format!(" from `{d}`"));
        return Some(Error::Swapped {
            message: format!("{called}: could not get {}{from}", front.package),
            hint: format!(
                "cargo's output is above, each line marked [{rev}]; set {} to a folder holding {} \
                 (`{}` in cargo nbench's repository) to build without the network",
                front.env, front.package, front.folder
            ),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_script_is_blamed_on_the_package_it_belongs_to() {
        let checkout = Path::new("/w/t/nbench/rev-1");
        let hint = |why: &str| build_failed("HEAD~1", "1", why, None, (checkout, None)).hint();
        // rust_decimal's dev-dependency on diesel, with MySQL on a machine without it.
        let theirs = "error: failed to run custom build command for `mysqlclient-sys v0.5.2`: \
                      panicked at build.rs:105:5: Did not find a compatible version";
        let theirs = hint(theirs).unwrap();
        assert!(
            theirs.contains("`mysqlclient-sys` is a dependency") && theirs.contains("install it"),
            "{theirs}"
        );
        // pest's own build script, which needs a setup step.
        let own = "error: failed to run custom build command for `pest_meta v2.7.5 \
                   (/w/t/nbench/rev-1/meta)`: panicked at build.rs:1:1: no grammar";
        let own = hint(own).unwrap();
        assert!(
            own.contains("without files the working tree has") && !own.contains("dependency"),
            "{own}"
        );
    }
}
