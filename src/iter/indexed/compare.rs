//! Lexicographic comparisons of two indexed iterators (`cmp`, `partial_cmp`, `eq`):
//! the first unequal pair decides, then the lengths, as with `Iterator::cmp`.

use std::cmp::Ordering;

use super::find_index::{Side, find_index};
use crate::iter::*;

/// `Iterator::cmp` for indexed parallel iterators.
pub(crate) fn compare<A, B>(a: A, b: B) -> Ordering
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
    A::Item: Ord,
{
    let by_len = a.len().cmp(&b.len());
    let unequal = |(x, y): (A::Item, A::Item)| Some(x.cmp(&y)).filter(|o| o.is_ne());
    match find_index(a.zip(b), Side::First, &unequal) {
        Some((_, ordering)) => ordering,
        None => by_len,
    }
}

/// `Iterator::partial_cmp` for indexed parallel iterators.
pub(crate) fn compare_partial<A, B>(a: A, b: B) -> Option<Ordering>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    A::Item: PartialOrd<B::Item>,
{
    let by_len = a.len().cmp(&b.len());
    let unequal = |(x, y): (A::Item, B::Item)| {
        let ordering = x.partial_cmp(&y);
        (ordering != Some(Ordering::Equal)).then_some(ordering)
    };
    match find_index(a.zip(b), Side::First, &unequal) {
        Some((_, ordering)) => ordering,
        None => Some(by_len),
    }
}

/// `Iterator::eq` for indexed parallel iterators: any unequal pair settles it.
pub(crate) fn equal<A, B>(a: A, b: B) -> bool
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    A::Item: PartialEq<B::Item>,
{
    let unequal = |(x, y): (A::Item, B::Item)| (x != y).then_some(());
    a.len() == b.len() && find_index(a.zip(b), Side::Any, &unequal).is_none()
}
