//! Fixed random bytes in the processes that count, and in both processes
//! of each epoch of a paired comparison, a sequence for each seed
//! [`ENTROPY_ENV`] names: a bench process's `getrandom`. (The two
//! processes of an epoch draw the same sequence, each epoch another: a
//! benchmark of inputs drawn at random then compares the builds on one
//! draw in each pair.)
//!
//! A hash map seeds its hasher from the operating system, anew in every
//! process, and the instructions its work takes follow the seed: minijinja's
//! suite counted handlebars' rendering ±1.2 % and liquid's ±6.9 % apart
//! from process to process of one executable, so the counts could not say
//! that two builds ran the same code. Rust's standard library looks
//! `getrandom` up by name so that a program may give its own (for
//! measurements like this one), and a process that counts takes its bytes
//! from a fixed sequence instead: the `k`-th counting process of each side
//! of a comparison draws the `k`-th sequence, so the two builds draw the
//! same seeds in the same order, and a side's processes draw other ones
//! (what a benchmark counts only through its seeds then differs from
//! process to process, as where an earlier benchmark made one hash map
//! more and moved the seeds of those after it).
//! Crates that call the C library's `getrandom` get the same, and on x86_64
//! so do those that make the system call through the C library's `syscall`
//! (the `getrandom` crate before 0.3, under `rand` 0.8: [`syscall`]); those
//! that read `/dev/urandom` or make the system call in their own assembly do
//! not. Elsewhere the call goes to the kernel, as it would without this.

#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod syscall;

/// Set by `cargo nbench` in the processes that count instructions and in
/// those of a paired comparison: `fixed` (the sequence of seed 0) or
/// `fixed:SEED`.
pub const ENTROPY_ENV: &str = "NBENCH_ENTROPY";

/// The value of [`ENTROPY_ENV`] that asks for the fixed sequence of `seed`
/// (`fixed` alone for 0, as a harness from before other seeds reads it).
pub fn fixed_value(seed: u64) -> String {
    match seed {
        0 => "fixed".to_owned(),
        n => format!("fixed:{n}"),
    }
}

/// The fixed sequence [`ENTROPY_ENV`]'s value asks for ([`fixed_value`]):
/// its seed, or `None` for the kernel's bytes (unset, or any other value).
#[cfg_attr(
    not(all(
        target_os = "linux",
        target_env = "gnu",
        any(target_arch = "x86_64", target_arch = "aarch64")
    )),
    allow(dead_code)
)]
fn fixed_seed(value: &[u8]) -> Option<u64> {
    let digits = match value.strip_prefix(b"fixed") {
        Some([]) => return Some(0),
        Some([b':', digits @ ..]) if !digits.is_empty() && digits.len() <= 9 => digits,
        _ => return None,
    };
    (digits.iter()).try_fold(0u64, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + u64::from(d - b'0'))
    })
}

#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod imp {
    #[cfg(target_arch = "aarch64")]
    use std::ffi::c_long;
    use std::ffi::{c_char, c_uint, c_void};
    use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

    unsafe extern "C" {
        fn getenv(name: *const c_char) -> *const c_char;
        #[cfg(target_arch = "aarch64")]
        fn syscall(number: c_long, ...) -> c_long;
    }

    #[cfg(target_arch = "aarch64")]
    const SYS_GETRANDOM: c_long = 278;

    /// [`super::ENTROPY_ENV`], for the C library.
    pub(super) const NAME: &std::ffi::CStr = c"NBENCH_ENTROPY";

    /// 0: not looked up yet; 1: fixed; 2: the kernel's.
    static MODE: AtomicU8 = AtomicU8::new(0);
    /// Where the fixed sequence starts: its seed's place in the counter.
    static START: AtomicU64 = AtomicU64::new(0);
    /// How many 8-byte words the fixed sequence has given.
    static DRAWN: AtomicU64 = AtomicU64::new(0);

    fn fixed() -> bool {
        match MODE.load(Ordering::Relaxed) {
            0 => {
                // `getenv` allocates nothing: this may run while an
                // allocator seeds itself.
                // SAFETY: a NUL-terminated name; the value is only read.
                let value = unsafe { getenv(NAME.as_ptr()) };
                // SAFETY: `getenv` gives null or a NUL-terminated string.
                let seed = (!value.is_null())
                    .then(|| unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes())
                    .and_then(super::fixed_seed);
                START.store(start(seed.unwrap_or(0)), Ordering::Relaxed);
                MODE.store(if seed.is_some() { 1 } else { 2 }, Ordering::Relaxed);
                seed.is_some()
            }
            mode => mode == 1,
        }
    }

    /// Where the sequence of `seed` starts in the counter: 2^40 words
    /// apart, more than a process draws.
    pub(super) fn start(seed: u64) -> u64 {
        seed << 40
    }

    /// The `n`th word of the fixed sequence (SplitMix64 over a counter).
    pub(super) fn word(n: u64) -> u64 {
        let mut z = n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The C library's `getrandom(2)`, as the standard library and the C
    /// library's callers in this program find it (and, on x86_64, its
    /// `syscall` for that call): `length` bytes of the fixed sequence where
    /// [`super::ENTROPY_ENV`] asks, the kernel's otherwise.
    ///
    /// # Safety
    ///
    /// `buffer` is valid for writes of `length` bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn getrandom(buffer: *mut c_void, length: usize, flags: c_uint) -> isize {
        if !fixed() {
            // SAFETY: the caller's buffer and length, as the kernel takes them.
            #[cfg(target_arch = "x86_64")]
            return unsafe { super::syscall::kernel_getrandom(buffer, length, flags) };
            // SAFETY: as above.
            #[cfg(target_arch = "aarch64")]
            return unsafe { syscall(SYS_GETRANDOM, buffer, length, c_long::from(flags)) } as isize;
        }
        let bytes = buffer.cast::<u8>();
        for start in (0..length).step_by(8) {
            let n = START.load(Ordering::Relaxed) + DRAWN.fetch_add(1, Ordering::Relaxed);
            let w = word(n).to_le_bytes();
            let n = (length - start).min(8);
            // SAFETY: `start + n <= length`, within the caller's buffer.
            unsafe { std::ptr::copy_nonoverlapping(w.as_ptr(), bytes.add(start), n) };
        }
        length as isize
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_value_names_a_fixed_sequence_or_the_kernels_bytes() {
        use super::fixed_seed;
        assert_eq!(fixed_seed(b"fixed"), Some(0));
        assert_eq!(fixed_seed(b"fixed:2"), Some(2));
        assert_eq!(fixed_seed(b"fixed:17"), Some(17));
        for seed in [0, 1, 2, 999_999_999] {
            let value = super::fixed_value(seed);
            assert_eq!(fixed_seed(value.as_bytes()), Some(seed), "{value}");
        }
        for other in [
            &b""[..],
            b"kernel",
            b"fixed:",
            b"fixed:x",
            b"fixed2",
            b"fixed:1234567890",
        ] {
            assert_eq!(
                fixed_seed(other),
                None,
                "{:?}",
                String::from_utf8_lossy(other)
            );
        }
    }

    #[cfg(all(
        target_os = "linux",
        target_env = "gnu",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    #[test]
    fn without_the_variable_the_bytes_are_the_kernels_and_the_fixed_sequence_varies() {
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        // SAFETY: buffers of the length given.
        let got = unsafe { super::imp::getrandom(a.as_mut_ptr().cast(), 32, 0) };
        assert_eq!(got, 32);
        // SAFETY: as above.
        unsafe { super::imp::getrandom(b.as_mut_ptr().cast(), 32, 0) };
        assert_ne!(a, b, "two draws from the kernel came out equal");
        let words: Vec<u64> = (0..4).map(super::imp::word).collect();
        // Each seed its own sequence.
        let other: Vec<u64> = (0..4)
            .map(|n| super::imp::word(super::imp::start(1) + n))
            .collect();
        assert!(
            words.iter().all(|w| !other.contains(w)),
            "{words:?} {other:?}"
        );
        assert_eq!(super::imp::NAME.to_str(), Ok(super::ENTROPY_ENV));
        assert!(words.windows(2).all(|w| w[0] != w[1]), "{words:?}");
    }
}
