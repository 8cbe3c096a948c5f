//! Sorting by a key computed once per element, with the keys computed in
//! parallel.
//!
//! The keys are paired with their element's index, the pairs are sorted with
//! the unstable parallel sort (the index breaks ties, so the result is stable),
//! then the slice is permuted in place to follow the sorted pairs.

use std::cmp::Ordering;
use std::collections::LinkedList;

use super::{SEQUENTIAL_CUTOFF, goes_sequential, unstable_sort};

/// Sorts `v` stably by `key`, calling `key` once per element.
pub(crate) fn cached_key_sort<T, K, F>(v: &mut [T], key: &F)
where
    T: Send,
    K: Ord + Send,
    F: Fn(&T) -> K + Sync,
{
    if v.len() < 2 {
        return;
    }
    let mut keyed = keys_with_indices(v, key);
    unstable_sort(&mut keyed, &|a: &(K, usize), b: &(K, usize)| -> Ordering {
        a.0.cmp(&b.0).then(a.1.cmp(&b.1))
    });
    apply_permutation(v, &mut keyed);
}

/// `(key(v[i]), i)` for every `i`, computed in parallel pieces.
fn keys_with_indices<T, K, F>(v: &mut [T], key: &F) -> Vec<(K, usize)>
where
    T: Send,
    K: Send,
    F: Fn(&T) -> K + Sync,
{
    if goes_sequential::<T>(v.len(), SEQUENTIAL_CUTOFF) {
        return v.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    }
    let grain = (v.len() / (4 * crate::current_num_threads())).max(super::MIN_LEAF);
    let pieces = key_pieces(v, 0, key, grain);
    let mut all = Vec::with_capacity(v.len());
    for mut piece in pieces {
        all.append(&mut piece);
    }
    all
}

/// The keyed pairs of `v` (which starts at index `offset`), as a list of
/// pieces in order. Each piece owns its keys, so a panicking `key` drops the
/// ones already computed.
fn key_pieces<T, K, F>(
    v: &mut [T],
    offset: usize,
    key: &F,
    grain: usize,
) -> LinkedList<Vec<(K, usize)>>
where
    T: Send,
    K: Send,
    F: Fn(&T) -> K + Sync,
{
    if v.len() <= grain {
        let piece = v
            .iter()
            .enumerate()
            .map(|(i, x)| (key(x), offset + i))
            .collect();
        return LinkedList::from([piece]);
    }
    let mid = v.len() / 2;
    let (lo, hi) = v.split_at_mut(mid);
    let (mut left, mut right) = crate::join(
        || key_pieces(lo, offset, key, grain),
        || key_pieces(hi, offset + mid, key, grain),
    );
    left.append(&mut right);
    left
}

/// Permutes `v` so that position `i` receives the element first at
/// `keyed[i].1`. Uses `keyed`'s indices as scratch.
///
/// Position by position: when the wanted element's old place `j` is before `i`,
/// that place was already filled, and its element was sent to `keyed[j].1`;
/// following those links finds where it is now.
fn apply_permutation<T, K>(v: &mut [T], keyed: &mut [(K, usize)]) {
    for i in 0..v.len() {
        let mut from = keyed[i].1;
        while from < i {
            from = keyed[from].1;
        }
        keyed[i].1 = from;
        v.swap(i, from);
    }
}
