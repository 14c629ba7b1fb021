//! What every bench process is started with: address-space randomisation
//! off where asked, and its end tied to `cargo nbench`'s.

use std::process::Command;

/// The `argv[0]` every placed process gets, whatever its executable's path.
pub const PLACED_ARG0: &str = "nbench-bench";

/// Turns address-space randomisation off for the child (Linux
/// `personality(ADDR_NO_RANDOMIZE)`); where the system refuses, the child
/// runs randomised, as any other. Its `argv[0]` is [`PLACED_ARG0`]: the
/// kernel copies both `argv[0]` and the executable's path onto the new
/// stack, and the harness copies its arguments (`argv[0]` among them) onto
/// the heap at start-up, so two executables at paths of different lengths
/// started their stacks at different offsets (the padding variable makes up
/// for one copy of the path, not two) and laid out their heaps differently.
#[cfg(target_os = "linux")]
pub fn same_addresses(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.arg0(PLACED_ARG0);
    not_randomized(cmd);
}

/// Turns address-space randomisation off for the child (Linux
/// `personality(ADDR_NO_RANDOMIZE)`, which an `exec` keeps); where the
/// system refuses, the child runs randomised, as any other.
#[cfg(target_os = "linux")]
pub fn not_randomized(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    unsafe extern "C" {
        fn personality(persona: u64) -> i32;
    }
    const ADDR_NO_RANDOMIZE: u64 = 0x0040000;
    // SAFETY: runs in the child between fork and exec, calling only an
    // async-signal-safe system call; its failure is ignored.
    unsafe {
        cmd.pre_exec(|| {
            let current = personality(0xffff_ffff);
            if current >= 0 {
                personality(current as u64 | ADDR_NO_RANDOMIZE);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn same_addresses(_: &mut Command) {}

/// Elsewhere the child runs randomised.
#[cfg(not(target_os = "linux"))]
pub fn not_randomized(_: &mut Command) {}

/// Asks the kernel to kill the child when this process dies, however it
/// dies (`kill -9` included), so no bench process outlives `cargo nbench`.
#[cfg(target_os = "linux")]
pub fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    unsafe extern "C" {
        fn prctl(option: i32, ...) -> i32;
        fn getppid() -> i32;
    }
    const PR_SET_PDEATHSIG: i32 = 1;
    const SIGKILL: u64 = 9;
    let parent = std::process::id() as i32;
    // SAFETY: runs in the child between fork and exec, calling only
    // async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            // The parent may have died before the request was made.
            if getppid() != parent {
                return Err(std::io::Error::other("cargo nbench exited"));
            }
            Ok(())
        });
    }
}

/// Elsewhere the bench process notices a closed channel at its next command.
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_: &mut Command) {}
