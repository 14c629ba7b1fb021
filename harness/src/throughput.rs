//! `Throughput`: the work one iteration does, shown as a rate beside the time.

/// Work done by one iteration, reported as a rate beside the time: the
/// amount divided by the median time per iteration (`Bytes` in binary
/// prefixes, 1 KiB = 1024 B; `Items` in decimal ones). Declare it with
/// [`Bencher::throughput`](crate::Bencher::throughput) before the timing call.
///
/// ```
/// # fn bench(b: &mut nbench::Bencher) {
/// let data = vec![0u8; 4096];
/// b.throughput(nbench::Throughput::Bytes(data.len() as u64));
/// b.iter(|| data.iter().map(|&x| x as u64).sum::<u64>());
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throughput {
    /// Bytes processed per iteration, as the routine reads or writes them
    /// (shown as KiB/s, MiB/s, GiB/s).
    Bytes(u64),
    /// Items processed per iteration (shown as elem/s, Kelem/s, …).
    Items(u64),
}
