//! A small, seedable, deterministic random number generator for the lottery
//! (xorshift64*: fast, and good enough to draw tickets).

#[derive(Debug, Clone)]
pub(crate) struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (any value; zero is mapped to a fixed odd constant).
    pub(crate) fn new(seed: u64) -> Self {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
