//! Valgrind's client requests, for counting instructions under callgrind:
//! whether the process runs under Valgrind, and switching callgrind's
//! collection on and off around measured iterations, zeroing it and
//! dumping its counts under a label.
//!
//! A client request is a sequence of instructions that does nothing on a
//! real CPU (rotations of a register by 64 bits in all) and that Valgrind's
//! translator recognises: the request's arguments are read from memory
//! through one register, its answer written to another. Outside Valgrind
//! the answer is the default passed in. Written here for x86_64 and
//! aarch64; elsewhere every request answers its default (not on Valgrind).

/// The request codes: Valgrind's core's, and callgrind's (`VG_USERREQ_TOOL_BASE('C','T')` on).
mod code {
    pub const RUNNING_ON_VALGRIND: usize = 0x1001;
    const CALLGRIND: usize = ((b'C' as usize) << 24) | ((b'T' as usize) << 16);
    pub const ZERO_STATS: usize = CALLGRIND + 1;
    pub const TOGGLE_COLLECT: usize = CALLGRIND + 2;
    pub const DUMP_STATS_AT: usize = CALLGRIND + 3;
    pub const START_INSTRUMENTATION: usize = CALLGRIND + 4;
    pub const STOP_INSTRUMENTATION: usize = CALLGRIND + 5;
}

/// Found in every binary whose counting switches callgrind's
/// instrumentation on around each benchmark's counted loop
/// ([`instrument`]): `cargo nbench` runs those under
/// `--instr-atstart=no`, so that the rest (the process's start, a
/// benchmark's setup: base64's 30 MB random inputs) runs several times
/// faster, uninstrumented. An older binary would count nothing so.
pub const INSTRUMENTS_ITSELF: &[u8] =
    b"nbench count: switches callgrind's instrumentation on around each count";

/// Found in every binary whose counting takes every thread's instructions
/// where `cargo nbench` starts callgrind with `--collect-atstart=yes` and
/// sets [`EVERY_THREAD_ENV`]: collection then stays on in every thread
/// (callgrind switches it for one thread at a time), each count is what
/// all of them did between zeroing and dumping, and only the thread that
/// makes a batch's inputs switches its own off meanwhile
/// ([`crate::counting`]). An older binary, started so, would count
/// everything but its samples.
pub const COUNTS_EVERY_THREAD: &[u8] =
    b"nbench count: counts every thread where callgrind collects from the start";

/// Set (to anything) where `cargo nbench` started callgrind with
/// `--collect-atstart=yes`, for a binary that has [`COUNTS_EVERY_THREAD`].
pub const EVERY_THREAD_ENV: &str = "NBENCH_COUNT_EVERY_THREAD";

/// Sends client request `request` with `args`; Valgrind's answer, or
/// `default` on a real CPU.
#[inline(always)]
fn request(default: usize, request: usize, args: [usize; 5]) -> usize {
    let block: [usize; 6] = [request, args[0], args[1], args[2], args[3], args[4]];
    send(default, &block)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn send(default: usize, block: &[usize; 6]) -> usize {
    let mut answer = default;
    // SAFETY: four rotations of rdi by 3 + 13 + 61 + 51 = 128 bits leave it
    // as it was, and `xchg rbx, rbx` changes nothing: on a real CPU the
    // sequence has no effect. Valgrind reads the six words at `block`
    // (which lives across the call) and writes its answer to rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") answer,
            options(nostack),
        );
    }
    answer
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn send(default: usize, block: &[usize; 6]) -> usize {
    let mut answer = default;
    // SAFETY: four rotations of x12 by 3 + 13 + 51 + 61 = 128 bits leave it
    // as it was, and `orr x10, x10, x10` changes nothing: on a real CPU the
    // sequence has no effect. Valgrind reads the six words at `block`
    // through x4 and writes its answer to x3.
    unsafe {
        std::arch::asm!(
            "ror x12, x12, #3",
            "ror x12, x12, #13",
            "ror x12, x12, #51",
            "ror x12, x12, #61",
            "orr x10, x10, x10",
            in("x4") block.as_ptr(),
            inout("x3") answer,
            options(nostack),
        );
    }
    answer
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn send(default: usize, _: &[usize; 6]) -> usize {
    default
}

/// Whether this process runs under Valgrind (on a real CPU, or an
/// architecture the requests are not written for: no).
pub fn running() -> bool {
    request(0, code::RUNNING_ON_VALGRIND, [0; 5]) > 0
}

/// Callgrind's counts set back to zero.
pub fn zero() {
    request(0, code::ZERO_STATS, [0; 5]);
}

/// Callgrind's collection switched on where it was off and off where on
/// (`--collect-atstart=no` starts it off).
pub fn toggle_collect() {
    request(0, code::TOGGLE_COLLECT, [0; 5]);
}

/// Callgrind's instrumentation on (`true`) or off. It is on where a run
/// did not start it off (`--instr-atstart=no`); switching it to the state
/// it is in does nothing.
pub fn instrument(on: bool) {
    let code = match on {
        true => code::START_INSTRUMENTATION,
        false => code::STOP_INSTRUMENTATION,
    };
    request(0, code, [0; 5]);
}

/// A dump's label as [`dump_at`] sends it, made before the count begins:
/// where every thread is counted, making it in the counted span would
/// count its allocation too.
pub struct Label(Vec<u8>);

impl Label {
    /// `label` on one line, as callgrind writes it back.
    pub fn new(label: &str) -> Label {
        let mut text = label.replace(['\n', '\0'], " ").into_bytes();
        text.push(0);
        Label(text)
    }
}

/// Callgrind's counts since the last zero or dump written to a new part of
/// its output file, with `label` as its trigger
/// (`desc: Trigger: Client Request: LABEL`).
pub fn dump_at(label: &Label) {
    request(
        0,
        code::DUMP_STATS_AT,
        [label.0.as_ptr() as usize, 0, 0, 0, 0],
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn on_a_real_cpu_every_request_answers_its_default() {
        // `cargo test` does not run under Valgrind; the requests must be
        // harmless there (the test binary would crash on a bad sequence).
        assert!(!super::running());
        super::zero();
        super::toggle_collect();
        super::instrument(true);
        super::instrument(false);
        super::dump_at(&super::Label::new("nothing\nhere"));
        assert_eq!(super::request(7, 0xFFFF, [1, 2, 3, 4, 5]), 7);
    }
}
