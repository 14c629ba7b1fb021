//! A setup run beside its command (gungraun's `setup_parallel`), in a
//! process of its own as in gungraun: this bench executable started again
//! for that setup alone ([`SETUP_ENV`]), so that a counted run counts the
//! command and not the setup. The command starts once the setup has
//! started and the command's `Delay` has passed; the setup is waited for
//! when the command has ended, outside the timing, and must succeed.

use nbench::__private::command::Stream;
use std::io::Write;
use std::process::{Child, Stdio};

/// A benchmark's setup (as `crate::binary` holds it).
pub(crate) type Setup = std::rc::Rc<dyn Fn()>;

/// Set, to a benchmark's id, in the process started to run its setup.
pub(crate) const SETUP_ENV: &str = "NBENCH_GUNGRAUN_SETUP_OF";

/// A setup running beside its command; ended (killed where it still runs)
/// when dropped unwaited.
pub(crate) struct Beside {
    child: Option<Child>,
    id: String,
}

impl Beside {
    /// Benchmark `id`'s setup started, and `piped` (one of its streams,
    /// where the command reads it) to hand to the command's stdin.
    pub(crate) fn start(
        id: &str,
        piped: Option<Stream>,
    ) -> Result<(Beside, Option<Stdio>), String> {
        let exe = std::env::current_exe().map_err(|e| format!("the bench executable: {e}"))?;
        let mut cmd = std::process::Command::new(exe);
        cmd.env(SETUP_ENV, id).stdin(Stdio::null());
        // Killed with this process: a run `cargo nbench` ends leaves no
        // server behind.
        nbench::__private::command::die_with_parent(&mut cmd);
        match piped {
            Some(Stream::Stdout) => cmd.stdout(Stdio::piped()),
            Some(Stream::Stderr) => cmd.stderr(Stdio::piped()),
            None => &mut cmd,
        };
        let not_started = |e| format!("the setup beside `{id}` did not start: {e}");
        let mut child = cmd.spawn().map_err(not_started)?;
        let stream = match piped {
            Some(Stream::Stdout) => child.stdout.take().map(Stdio::from),
            Some(Stream::Stderr) => child.stderr.take().map(Stdio::from),
            None => None,
        };
        let beside = Beside {
            child: Some(child),
            id: id.to_owned(),
        };
        Ok((beside, stream))
    }

    /// Waits for the setup to end; why not, where it did not succeed.
    pub(crate) fn finish(mut self) -> Result<(), String> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        let status = child
            .wait()
            .map_err(|e| format!("the setup beside `{}`: {e}", self.id))?;
        match status.success() {
            true => Ok(()),
            false => Err(format!(
                "the setup beside `{}` exited with {status}",
                self.id
            )),
        }
    }
}

impl Drop for Beside {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// In a process started for a setup ([`SETUP_ENV`]): runs the setup of the
/// benchmark it names, of `setups` (each benchmark's, by its whole id),
/// and gives the exit code (2 where none has that id). `None` elsewhere.
pub(crate) fn run_if_asked(setups: &[(String, Setup)]) -> Option<i32> {
    let id = std::env::var(SETUP_ENV).ok()?;
    let Some((_, setup)) = setups.iter().find(|(known, _)| *known == id) else {
        eprintln!("no binary benchmark `{id}` has a setup to run");
        return Some(2);
    };
    setup();
    let _ = std::io::stdout().flush();
    Some(0)
}
