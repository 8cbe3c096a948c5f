//! `unzip`, `partition`, `partition_map`, `unzip_into_vecs` and collections of pairs
//! against std's `unzip` and `partition`, on every length and pool.

mod common;

use std::collections::LinkedList;

use common::cases::for_all;
use common::plumbing::Unindexed;
use either::Either;
use prorata::prelude::*;

fn pair(x: usize) -> (usize, String) {
    (x * 3, format!("{x}"))
}

fn std_unzip(len: usize) -> (Vec<usize>, Vec<String>) {
    (0..len).map(pair).unzip()
}

fn is_odd_ish(x: &usize) -> bool {
    (x / 3) % 2 == 1 || x % 7 == 0
}

#[test]
fn unzip_indexed_matches_std() {
    for_all(|len| {
        let got: (Vec<usize>, Vec<String>) = (0..len).into_par_iter().map(pair).unzip();
        assert_eq!(got, std_unzip(len), "len {len}");
    });
}

#[test]
fn unzip_unindexed_matches_std() {
    for_all(|len| {
        let got: (Vec<usize>, Vec<String>) = Unindexed((0..len).into_par_iter().map(pair)).unzip();
        assert_eq!(got, std_unzip(len), "len {len}");
    });
}

#[test]
fn unzip_into_mixed_collections() {
    for_all(|len| {
        let (numbers, text): (Vec<usize>, String) =
            (0..len).into_par_iter().map(|x| (x, 'x')).unzip();
        assert_eq!(numbers, (0..len).collect::<Vec<_>>());
        assert_eq!(text, "x".repeat(len));
    });
}

#[test]
fn nested_unzip_of_triples() {
    for_all(|len| {
        let (a, (b, c)): (Vec<usize>, (Vec<usize>, Vec<usize>)) = (0..len)
            .into_par_iter()
            .map(|x| (x, (x + 1, x + 2)))
            .unzip();
        assert_eq!(a, (0..len).collect::<Vec<_>>());
        assert_eq!(b, (1..len + 1).collect::<Vec<_>>());
        assert_eq!(c, (2..len + 2).collect::<Vec<_>>());
    });
}

#[test]
fn unzip_into_vecs_replaces_contents() {
    for_all(|len| {
        let mut left = vec![99, 98];
        let mut right = vec![String::from("old")];
        (0..len)
            .into_par_iter()
            .map(pair)
            .unzip_into_vecs(&mut left, &mut right);
        assert_eq!((left, right), std_unzip(len));
    });
}

#[test]
fn collect_pairs_into_pairs_of_collections() {
    for_all(|len| {
        let got: (Vec<usize>, Vec<String>) = (0..len).into_par_iter().map(pair).collect();
        assert_eq!(got, std_unzip(len));
        let got: (Vec<usize>, Vec<String>) =
            Unindexed((0..len).into_par_iter().map(pair)).collect();
        assert_eq!(got, std_unzip(len));
    });
}

#[test]
fn extend_pairs_of_collections() {
    for_all(|len| {
        let mut got = (vec![1usize], vec![String::from("a")]);
        got.par_extend((0..len).into_par_iter().map(pair));
        let (mut want_a, mut want_b) = (vec![1usize], vec![String::from("a")]);
        let (a, b) = std_unzip(len);
        want_a.extend(a);
        want_b.extend(b);
        assert_eq!(got, (want_a, want_b));
    });
}

#[test]
fn partition_matches_std() {
    for_all(|len| {
        let want: (Vec<usize>, Vec<usize>) = (0..len).partition(is_odd_ish);
        let got: (Vec<usize>, Vec<usize>) = (0..len).into_par_iter().partition(is_odd_ish);
        assert_eq!(got, want, "len {len}");
        let got: (Vec<usize>, Vec<usize>) =
            Unindexed((0..len).into_par_iter()).partition(is_odd_ish);
        assert_eq!(got, want, "len {len}");
    });
}

#[test]
fn partition_into_other_collections() {
    for_all(|len| {
        let (yes, no): (LinkedListOf, Vec<usize>) = (0..len).into_par_iter().partition(is_odd_ish);
        let (want_yes, want_no): (Vec<usize>, Vec<usize>) = (0..len).partition(is_odd_ish);
        assert_eq!(yes.0.into_iter().collect::<Vec<_>>(), want_yes);
        assert_eq!(no, want_no);
    });
}

/// A collection outside the crate, extended through `collect_vec_list`.
#[derive(Default)]
struct LinkedListOf(LinkedList<usize>);

impl ParallelExtend<usize> for LinkedListOf {
    fn par_extend<I: IntoParallelIterator<Item = usize>>(&mut self, iter: I) {
        for piece in iter.into_par_iter().collect_vec_list() {
            self.0.extend(piece);
        }
    }
}

fn split_by_kind(x: usize) -> Either<usize, String> {
    if is_odd_ish(&x) {
        Either::Left(x * 2)
    } else {
        Either::Right(x.to_string())
    }
}

fn std_partition_map(len: usize) -> (Vec<usize>, Vec<String>) {
    let mut want = (vec![], vec![]);
    for x in 0..len {
        match split_by_kind(x) {
            Either::Left(l) => want.0.push(l),
            Either::Right(r) => want.1.push(r),
        }
    }
    want
}

#[test]
fn partition_map_matches_sequential() {
    for_all(|len| {
        let got: (Vec<usize>, Vec<String>) = (0..len).into_par_iter().partition_map(split_by_kind);
        assert_eq!(got, std_partition_map(len), "len {len}");
    });
}

#[test]
fn collect_and_extend_eithers_into_pairs() {
    for_all(|len| {
        let got: (Vec<usize>, Vec<String>) = (0..len).into_par_iter().map(split_by_kind).collect();
        assert_eq!(got, std_partition_map(len));
        let mut extended: (Vec<usize>, Vec<String>) = (vec![], vec![]);
        extended.par_extend((0..len).into_par_iter().map(split_by_kind));
        assert_eq!(extended, std_partition_map(len));
    });
}

#[test]
fn either_extends_the_collection_it_holds() {
    for_all(|len| {
        let mut left: Either<Vec<usize>, std::collections::BTreeSet<usize>> = Either::Left(vec![7]);
        left.par_extend((0..len).into_par_iter());
        let mut right: Either<Vec<usize>, std::collections::BTreeSet<usize>> =
            Either::Right([7].into());
        right.par_extend(Unindexed((0..len).into_par_iter()));
        let mut want = vec![7];
        want.extend(0..len);
        assert_eq!(left, Either::Left(want.clone()));
        assert_eq!(right, Either::Right(want.into_iter().collect()));
    });
}
