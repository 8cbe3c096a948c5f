//! The producers of the indexed adaptors (`map_with`, `map_init`, `cloned`,
//! `copied`, `inspect`, `update`, `chain`, `panic_fuse`, `intersperse`), split at
//! every index and read from both ends: each piece must hold exactly its items.

use prorata::iter::plumbing::{Producer, ProducerCallback};
use prorata::prelude::*;

/// Splits a fresh producer at every index (and each right part once more), reading
/// pieces forwards, backwards and from both ends, against `expected`.
fn check_splits<I, F>(make: F, expected: &[I::Item])
where
    I: IndexedParallelIterator<Item: PartialEq + std::fmt::Debug>,
    F: Fn() -> I,
{
    assert_eq!(make().len(), expected.len());
    for k in 0..=expected.len() {
        make().with_producer(SplitAt { k, expected });
    }
}

struct SplitAt<'a, T> {
    k: usize,
    expected: &'a [T],
}

impl<T: PartialEq + std::fmt::Debug> ProducerCallback<T> for SplitAt<'_, T> {
    type Output = ();

    fn callback<P: Producer<Item = T>>(self, producer: P) {
        let (k, expected) = (self.k, self.expected);
        let (left, right) = producer.split_at(k);
        let left_items: Vec<T> = left.into_iter().collect();
        assert_eq!(left_items, expected[..k], "left of {k}");
        // Split the right part again in its middle and read both halves backwards.
        let rest = &expected[k..];
        let mid = rest.len() / 2;
        let (a, b) = right.split_at(mid);
        let mut a_items: Vec<T> = a.into_iter().rev().collect();
        a_items.reverse();
        assert_eq!(a_items, rest[..mid], "middle of {k}");
        let mut it = b.into_iter();
        assert_eq!(it.len(), rest.len() - mid);
        // Alternate ends.
        let mut front = Vec::new();
        let mut back = Vec::new();
        loop {
            match it.next() {
                Some(x) => front.push(x),
                None => break,
            }
            match it.next_back() {
                Some(x) => back.push(x),
                None => break,
            }
        }
        back.reverse();
        front.extend(back);
        assert_eq!(front, rest[mid..], "right of {k}");
    }
}

fn values(len: usize) -> Vec<u32> {
    (0..len as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) % 100)
        .collect()
}

#[test]
fn intersperse_producer_splits() {
    for len in 0..12 {
        let v = values(len);
        let mut expected = Vec::new();
        for (i, &x) in v.iter().enumerate() {
            if i > 0 {
                expected.push(1000);
            }
            expected.push(x);
        }
        check_splits(|| v.par_iter().copied().intersperse(1000), &expected);
        // A piece may start with a separator: split again inside the result.
        check_splits(
            || v.par_iter().copied().intersperse(1000).intersperse(2000),
            &expected
                .iter()
                .enumerate()
                .flat_map(|(i, &x)| if i > 0 { vec![2000, x] } else { vec![x] })
                .collect::<Vec<_>>(),
        );
    }
}

#[test]
fn chain_producer_splits() {
    for len in 0..12 {
        let v = values(len);
        for cut in 0..=len {
            check_splits(|| v[..cut].par_iter().chain(&v[cut..]).copied(), &v);
        }
    }
}

#[test]
fn map_and_pass_through_producers_split() {
    for len in 0..12 {
        let v = values(len);
        let plus: Vec<u32> = v.iter().map(|x| x + 1).collect();
        check_splits(|| v.par_iter().map_with(1u32, |one, &x| x + *one), &plus);
        check_splits(|| v.par_iter().map_init(|| 1u32, |one, &x| x + *one), &plus);
        check_splits(|| v.par_iter().copied().update(|x| *x += 1), &plus);
        check_splits(|| v.par_iter().copied().inspect(|_| ()), &v);
        check_splits(|| v.par_iter().cloned().panic_fuse(), &v);
    }
}
