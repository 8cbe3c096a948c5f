//! Pivot choice: the median of a stratified random sample.

use std::cmp::Ordering;

/// Elements in the sample (odd, so there is one median).
const SAMPLE_SIZE: usize = 63;

/// Returns the index of an element of `v` that is the median of a sample: one
/// element at a random place in each of `SAMPLE_SIZE` equal strata of `v`. The
/// sample is sorted by index, so nothing moves and a panicking comparator
/// leaves `v` untouched. `v` must have at least `SAMPLE_SIZE` elements.
pub(super) fn median_of_sample<T, F>(v: &[T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let stratum = v.len() / SAMPLE_SIZE;
    debug_assert!(stratum > 0);
    // A fixed-seed xorshift: the same input gets the same pivots (reproducible
    // runs), while regular patterns in the input cannot line up with the sample.
    let mut state = (v.len() as u64) ^ 0x9E37_79B9_7F4A_7C15;
    let mut sample = [0usize; SAMPLE_SIZE];
    for (k, slot) in sample.iter_mut().enumerate() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *slot = k * stratum + (state % stratum as u64) as usize;
    }
    sample.sort_unstable_by(|&a, &b| compare(&v[a], &v[b]));
    sample[SAMPLE_SIZE / 2]
}
