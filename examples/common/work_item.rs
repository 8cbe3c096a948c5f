//! The unit of work of the latency examples (`latency.rs`, `latency_trace.rs`,
//! `ramp_up.rs`), so that their figures compare.

use std::hint::black_box;

/// About 0.1 µs of integer work that the optimiser cannot remove.
pub fn item(i: u64) -> u64 {
    let mut x = black_box(i) | 1;
    for _ in 0..40 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x & 0xff
}
