//! Where a process of a paired comparison's epoch runs, beside its memory
//! placement (`Session::start_placed`): the random bytes it draws, the
//! same as the other process of its epoch, and its side's temporary folder.

use nbench::__private::{ENTROPY_ENV, fixed_value};
use std::path::Path;
use std::process::Command as Process;

/// Where a process of a paired comparison's epoch runs: its memory placed
/// and its random bytes drawn as the other process of the epoch's, by
/// `seed`, and its temporary files in `tmp`, its side's own (the two draw
/// the same names: a UUID, `tempfile`'s), of a path as long as the other
/// side's.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    /// The epoch's: the same for both of its processes.
    pub seed: u64,
    /// The side's temporary folder, where it has one.
    pub tmp: Option<&'a Path>,
}

/// Gives `cmd` the random bytes of `place`'s epoch, and its side's
/// temporary folder, told it is its own (a package's binary it runs starts
/// from a link there, `OWN_TMP_ENV`).
pub fn draws_as_placed(cmd: &mut Process, place: Placement<'_>) {
    cmd.env(ENTROPY_ENV, fixed_value(entropy_seed(place.seed)));
    if let Some(tmp) = place.tmp {
        super::child::own_tmp(cmd, tmp);
    }
}

/// The fixed random sequence both processes of an epoch of a paired
/// comparison draw (the harness's `getrandom`, which seeds hash maps and
/// `rand`'s generators): each epoch another, so the epochs sample inputs
/// drawn at random as the processes of a run would, while the two sides
/// of each pair work on the same draw and their ratio is the code's alone.
/// (crc32fast's `combine` rows, whose lengths each process draws: their
/// pairs' ratios lay ±16–22 % apart, inconclusive; on the same draw,
/// ±0.1 %.) A harness reads at most 9 digits.
fn entropy_seed(place: u64) -> u64 {
    place % 1_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn the_processes_of_an_epoch_draw_alike_each_side_in_its_own_folder() {
        let said = |seed: u64, tmp: &str| {
            let mut cmd = Process::new("sh");
            cmd.args(["-c", "echo \"$NBENCH_ENTROPY $TMPDIR $NBENCH_OWN_TMP\""]);
            let tmp = Path::new(tmp);
            draws_as_placed(
                &mut cmd,
                Placement {
                    seed,
                    tmp: Some(tmp),
                },
            );
            String::from_utf8(cmd.output().expect("sh runs").stdout).unwrap()
        };
        let (base, cur) = (said(7_000_000_123, "/t/b"), said(7_000_000_123, "/t/c"));
        assert_eq!(base, "fixed:123 /t/b 1\n");
        assert_eq!(cur, "fixed:123 /t/c 1\n");
        assert_ne!(said(8, "/t/b"), base);
    }
}
