//! What every bench process is started with: address-space randomisation
//! off where asked, its end tied to `cargo nbench`'s, and a temporary
//! folder of its own where it has one.

use std::process::Command;

/// The `argv[0]` every placed process gets, whatever its executable's path.
pub const PLACED_ARG0: &str = "nbench-bench";

/// `struct rlimit` of `getrlimit`: `rlim_t` is an `unsigned long`.
#[cfg(target_os = "linux")]
#[repr(C)]
struct Rlimit {
    current: std::ffi::c_ulong,
    max: std::ffi::c_ulong,
}

// The C library's calls a child makes between fork and exec.
#[cfg(target_os = "linux")]
unsafe extern "C" {
    fn personality(persona: u64) -> i32;
    fn getrlimit(resource: i32, limit: *mut Rlimit) -> i32;
    fn setrlimit(resource: i32, limit: *const Rlimit) -> i32;
}

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

/// The stack a bench process's main thread may grow to, where the hard
/// limit allows: one codegen unit inlines more into a benchmark's frame
/// than cargo's 16 do (the time crate's `Date` benchmarks, which copy
/// 2.3 MB arrays, overflowed 8 MiB), and the pages are only taken as used.
/// Below 128 MiB the kernel lays out the address space as it would at
/// 8 MiB.
pub const STACK_BYTES: u64 = 64 << 20;

/// Lets the child's main stack grow to [`STACK_BYTES`] (Linux's
/// `RLIMIT_STACK`, raised up to its hard limit, never lowered).
#[cfg(target_os = "linux")]
pub fn room_for_stack(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    const RLIMIT_STACK: i32 = 3;
    // SAFETY: runs in the child between fork and exec, calling only
    // async-signal-safe system calls on a value of its own; a refusal
    // leaves the limit as it was.
    unsafe {
        cmd.pre_exec(|| {
            let mut limit = Rlimit { current: 0, max: 0 };
            let room = STACK_BYTES as std::ffi::c_ulong;
            if getrlimit(RLIMIT_STACK, &mut limit) == 0 && limit.current < room {
                limit.current = room.min(limit.max);
                setrlimit(RLIMIT_STACK, &limit);
            }
            Ok(())
        });
    }
}

/// Gives the child `dir` as its temporary folder (`TMPDIR`), one it owns:
/// of one length on both sides of a comparison and removed after it. A
/// process told so starts a package binary it runs from a link there
/// (the harness's `OWN_TMP_ENV`), so that both sides run it from paths of
/// one length: what a process's start counts follows its path.
pub fn own_tmp(cmd: &mut Command, dir: &std::path::Path) {
    cmd.env("TMPDIR", dir);
    cmd.env(nbench::__private::command::OWN_TMP_ENV, "1");
}

/// The variable that pads what [`as_cargo_runs`] sets to a whole number of
/// 4 KiB.
const CARGO_PAD_ENV: &str = "NBENCH_CARGO_PAD";

/// What `cargo bench` tells a bench binary it starts of its package, for
/// code that reads it as it runs (roaring's benchmarks find their data by
/// `CARGO_MANIFEST_DIR`): the folder `dir` it runs in is its package's,
/// with its manifest there. Padded to a whole number of 4 KiB, so that
/// the length of the folder's path does not move where the stack starts
/// (placement evens that out between a comparison's two sides, and code
/// that allocates counts by it).
pub fn as_cargo_runs(cmd: &mut Command, dir: &std::path::Path) {
    let vars = [
        ("CARGO_MANIFEST_DIR", dir.to_path_buf()),
        ("CARGO_MANIFEST_PATH", dir.join("Cargo.toml")),
    ];
    // Each `NAME=value` and its terminating zero.
    let taken: usize = (vars.iter())
        .map(|(k, v)| k.len() + v.as_os_str().len() + 2)
        .sum::<usize>()
        + CARGO_PAD_ENV.len()
        + 2;
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.env(CARGO_PAD_ENV, "x".repeat((4096 - taken % 4096) % 4096));
}

#[cfg(not(target_os = "linux"))]
pub fn room_for_stack(_: &mut Command) {}

#[cfg(not(target_os = "linux"))]
pub fn same_addresses(_: &mut Command) {}

/// Elsewhere the child runs randomised.
#[cfg(not(target_os = "linux"))]
pub fn not_randomized(_: &mut Command) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_bench_process_is_told_its_package_as_cargo_tells_it_in_whole_pages() {
        let told = |dir: &str| {
            let mut cmd = Command::new("sh");
            cmd.args([
                "-c",
                "echo \"$CARGO_MANIFEST_DIR|$CARGO_MANIFEST_PATH|$NBENCH_CARGO_PAD\"",
            ]);
            as_cargo_runs(&mut cmd, std::path::Path::new(dir));
            let out = String::from_utf8(cmd.output().expect("sh runs").stdout).unwrap();
            let parts: Vec<String> = out.trim_end().split('|').map(str::to_owned).collect();
            parts
        };
        for dir in ["/w/pkg", "/a/much/longer/worktree/path/of/the/same/pkg"] {
            let [manifest_dir, manifest_path, pad] = &told(dir)[..] else {
                panic!("three values");
            };
            assert_eq!(manifest_dir, dir);
            assert_eq!(manifest_path, &format!("{dir}/Cargo.toml"));
            let block = format!("CARGO_MANIFEST_DIR={dir}").len()
                + format!("CARGO_MANIFEST_PATH={manifest_path}").len()
                + format!("{CARGO_PAD_ENV}={pad}").len()
                + 3;
            assert_eq!(block % 4096, 0, "{dir}");
        }
    }

    #[test]
    fn a_child_may_grow_its_stack_to_the_room_given_or_the_hard_limit() {
        let limit = |flag: &str, room: bool| -> String {
            let mut cmd = Command::new("sh");
            cmd.args(["-c", &format!("ulimit {flag}")]);
            if room {
                room_for_stack(&mut cmd);
            }
            let out = cmd.output().expect("sh runs");
            String::from_utf8_lossy(&out.stdout).trim().to_owned()
        };
        let hard = limit("-Hs", false);
        let hard_kib: Option<u64> = hard.parse().ok();
        let before: Option<u64> = limit("-Ss", false).parse().ok();
        let soft = limit("-Ss", true);
        let wanted = STACK_BYTES / 1024;
        match (before, hard_kib) {
            // Unlimited, or already more: left as it was.
            (None, _) => assert_eq!(soft, "unlimited"),
            (Some(b), _) if b >= wanted => assert_eq!(soft, b.to_string()),
            (Some(_), Some(h)) => assert_eq!(soft, wanted.min(h).to_string()),
            (Some(_), None) => assert_eq!(soft, wanted.to_string()),
        }
    }
}
