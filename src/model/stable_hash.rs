//! FNV-1a, 64 bits: a hash that is the same on every machine and with every build of cargo nbench.
//!
//! Used where a hash becomes a name or a decision that another run must
//! repeat (a revision baseline's suffix, a benchmark's `hash:M/N` shard);
//! the standard library's hashers promise neither.

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn published_test_vectors() {
        // From the FNV reference (Fowler, Noll, Vo): "" and "a".
        assert_eq!(super::fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
