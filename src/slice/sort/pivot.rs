//! Pivot choice: medians of stratified random samples.

use std::cmp::Ordering;

/// Elements in the sample of one sequential partition (odd, so there is one
/// median).
const SAMPLE_SIZE: usize = 63;

/// Returns the index of an element of `v` that is the median of a sample of
/// `SAMPLE_SIZE` elements. `v` must have at least `SAMPLE_SIZE` elements.
pub(super) fn median_of_sample<T, F>(v: &[T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    sorted_sample::<T, F, SAMPLE_SIZE>(v, compare)[SAMPLE_SIZE / 2]
}

/// Returns the indices of `N` elements of `v`, one at a random place in each of
/// `N` equal strata, ordered by their elements. Nothing moves, so a panicking
/// comparator leaves `v` untouched. `v` must have at least `N` elements.
pub(super) fn sorted_sample<T, F, const N: usize>(v: &[T], compare: &F) -> [usize; N]
where
    F: Fn(&T, &T) -> Ordering,
{
    let stratum = v.len() / N;
    debug_assert!(stratum > 0);
    // A fixed-seed xorshift: the same input gets the same pivots (reproducible
    // runs), while regular patterns in the input cannot line up with the sample.
    let mut state = (v.len() as u64) ^ 0x9E37_79B9_7F4A_7C15;
    let mut sample = [0usize; N];
    for (k, slot) in sample.iter_mut().enumerate() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *slot = k * stratum + (state % stratum as u64) as usize;
    }
    super::insertion::insertion_sort(&mut sample, &|&a: &usize, &b: &usize| compare(&v[a], &v[b]));
    sample
}

/// Whether a sample suggests that `v` holds few distinct values: more than
/// half of the neighbouring pairs of its sorted sample are equal (the first
/// is not less than the second: the sorts ask nothing but "less"). std's
/// unstable sort sets equal elements aside in one pass each, so on such
/// inputs it is cheap enough that forking only pays on long ones.
/// `v` must have at least `SAMPLE_SIZE` elements.
pub(super) fn looks_few_distinct<T, F>(v: &[T], compare: &F) -> bool
where
    F: Fn(&T, &T) -> Ordering,
{
    let sample = sorted_sample::<T, F, SAMPLE_SIZE>(v, compare);
    let equal = sample
        .windows(2)
        .filter(|pair| !super::is_less(compare, &v[pair[0]], &v[pair[1]]))
        .count();
    2 * equal > SAMPLE_SIZE
}
