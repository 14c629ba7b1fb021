//! The bodies both front ends time, so that any difference is the front end's.

use std::hint::black_box;

/// Ten steps of a multiply–xorshift chain: about 5 ns per call.
#[inline(never)]
pub fn five_ns(seed: u64) -> u64 {
    let mut x = seed;
    for _ in 0..10 {
        x = x
            .wrapping_mul(0x5851_F42D_4C95_7F2D)
            .wrapping_add(0x1405_7B7E_F767_814F);
        x ^= x >> 29;
    }
    black_box(x)
}
