//! A random order with no dependency for it.

/// Fisher–Yates with xorshift64: an order that differs from run to run,
/// with no dependency for it.
pub fn shuffle(v: &mut [usize], state: &mut u64) {
    for i in (1..v.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let j = (*state % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}
