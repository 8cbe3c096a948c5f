//! Work for the shares' tests to run: CPU-bound items whose cost is known.

/// About a microsecond of work that the optimiser cannot remove.
pub fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}
