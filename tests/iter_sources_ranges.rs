//! Ranges and inclusive ranges of every integer type and `char`, against std,
//! including the type bounds, empty ranges and the surrogate gap.

#![allow(clippy::reversed_empty_ranges)]

mod common;

use common::cases::pools;
use common::plumbing::to_vec;
use prorata::prelude::*;

macro_rules! check_indexed_ranges {
    ($($t:ty),*) => {$(
        for pool in pools() {
            let cases: Vec<std::ops::Range<$t>> = vec![
                0..0, 5..3, 0..1, 0..100, <$t>::MIN..<$t>::MIN, <$t>::MAX - 5..<$t>::MAX,
                <$t>::MIN..<$t>::MIN.saturating_add(100), <$t>::MAX.saturating_sub(100)..<$t>::MAX,
            ];
            for r in cases {
                let it = r.clone().into_par_iter();
                assert_eq!(it.len(), r.len(), "{r:?}");
                assert_eq!(pool.install(|| to_vec(it)), r.clone().collect::<Vec<$t>>(), "{r:?}");
                let rev = pool.install(|| to_vec(r.clone().into_par_iter().rev()));
                assert_eq!(rev, r.clone().rev().collect::<Vec<$t>>(), "{r:?}");
            }
        }
    )*};
}

#[test]
fn indexed_ranges_like_std() {
    check_indexed_ranges!(u8, u16, u32, usize, i8, i16, i32, isize);
}

#[test]
fn full_width_small_ranges_like_std() {
    assert_eq!(
        to_vec((i8::MIN..i8::MAX).into_par_iter()),
        (i8::MIN..i8::MAX).collect::<Vec<_>>()
    );
    assert_eq!(
        to_vec((i16::MIN..i16::MAX).into_par_iter()),
        (i16::MIN..i16::MAX).collect::<Vec<_>>()
    );
    assert_eq!((isize::MIN..isize::MAX).into_par_iter().len(), usize::MAX);
    // (Skipping usize::MAX items would run them all, as in Rayon: stay at the ends.)
    let tail = (isize::MIN..isize::MAX).into_par_iter().rev().take(3);
    assert_eq!(
        to_vec(tail),
        [isize::MAX - 1, isize::MAX - 2, isize::MAX - 3]
    );
    let spread = (isize::MIN..isize::MAX)
        .into_par_iter()
        .step_by(usize::MAX / 2);
    assert_eq!(to_vec(spread), [isize::MIN, -1, isize::MAX - 1]);
}

macro_rules! check_unindexed_ranges {
    ($($t:ty => $huge_len:expr),*) => {$(
        for pool in pools() {
            let cases: Vec<std::ops::Range<$t>> = vec![
                0..0, 5..3, 0..1, 0..10_000, <$t>::MAX - 3..<$t>::MAX,
                <$t>::MIN..<$t>::MIN + 100,
            ];
            for r in cases {
                let it = r.clone().into_par_iter();
                assert_eq!(it.opt_len(), Some(r.clone().count()), "{r:?}");
                assert_eq!(pool.install(|| to_vec(it)), r.clone().collect::<Vec<$t>>(), "{r:?}");
            }
            let huge = <$t>::MIN..<$t>::MAX;
            assert_eq!(huge.into_par_iter().opt_len(), $huge_len);
        }
    )*};
}

#[test]
fn wide_ranges_are_unindexed_like_rayon() {
    // `MIN..MAX` of a 64-bit type has `usize::MAX` items (on 64-bit targets).
    check_unindexed_ranges!(
        u64 => usize::try_from(u64::MAX).ok(),
        i64 => usize::try_from(u64::MAX).ok(),
        u128 => None,
        i128 => None
    );
}

macro_rules! check_inclusive {
    ($($t:ty),*) => {$(
        for pool in pools() {
            let mut empty = 3..=5 as $t;
            empty.by_ref().for_each(drop);
            let cases: Vec<std::ops::RangeInclusive<$t>> = vec![
                0..=0, 5..=3, 0..=100, <$t>::MAX - 3..=<$t>::MAX, <$t>::MIN..=<$t>::MIN + 3, empty,
            ];
            for r in cases {
                let want: Vec<$t> = r.clone().collect();
                assert_eq!(r.clone().into_par_iter().opt_len(), Some(want.len()), "{r:?}");
                assert_eq!(pool.install(|| to_vec(r.clone().into_par_iter())), want, "{r:?}");
            }
        }
    )*};
}

#[test]
fn inclusive_ranges_like_std() {
    check_inclusive!(
        u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
    );
    assert_eq!(
        to_vec((i8::MIN..=i8::MAX).into_par_iter()),
        (i8::MIN..=i8::MAX).collect::<Vec<_>>()
    );
    assert_eq!((u8::MIN..=u8::MAX).into_par_iter().len(), 256);
    assert_eq!((u16::MIN..=u16::MAX).into_par_iter().rev().len(), 65_536);
    assert_eq!(
        to_vec((u64::MAX - 3..=u64::MAX).into_par_iter()),
        (u64::MAX - 3..=u64::MAX).collect::<Vec<_>>()
    );
    assert_eq!((0..=u64::MAX).into_par_iter().opt_len(), None);
    assert_eq!((0..=u128::MAX).into_par_iter().opt_len(), None);
    assert_eq!(
        (1..=u32::MAX).into_par_iter().opt_len(),
        usize::try_from(u32::MAX).ok()
    );
}

#[test]
fn char_ranges_skip_the_surrogate_gap() {
    for pool in pools() {
        let cases = [
            ('a', 'z'),
            ('\u{D7F0}', '\u{E010}'),
            ('\u{D7FF}', '\u{E000}'),
            ('\0', char::MAX),
            ('z', 'a'),
        ];
        for (lo, hi) in cases {
            let want: Vec<char> = (lo..hi).collect();
            let it = (lo..hi).into_par_iter();
            assert_eq!(it.len(), want.len());
            assert_eq!(pool.install(|| to_vec(it)), want);
            let want: Vec<char> = (lo..=hi).collect();
            let it = (lo..=hi).into_par_iter();
            assert_eq!(it.len(), want.len());
            assert_eq!(
                pool.install(|| to_vec(it.rev())),
                want.into_iter().rev().collect::<Vec<_>>()
            );
        }
    }
}

macro_rules! check_wide_collect {
    ($($t:ty),*) => {$(
        for pool in pools() {
            let cases: Vec<std::ops::Range<$t>> = vec![
                0..0, 0..1, 0..100_000, <$t>::MAX - 5000..<$t>::MAX, <$t>::MIN..<$t>::MIN + 5000,
            ];
            for r in cases {
                let want: Vec<$t> = r.clone().map(|x| x / 2).collect();
                let got: Vec<$t> = pool.install(|| r.clone().into_par_iter().map(|x| x / 2).collect());
                assert_eq!(got, want, "{r:?}");
                let odd: Vec<$t> = pool.install(|| r.clone().into_par_iter().filter(|x| x % 2 == 1).collect());
                assert_eq!(odd, r.clone().filter(|x| x % 2 == 1).collect::<Vec<_>>(), "{r:?}");
                let inclusive = r.start..=r.end;
                let want: Vec<$t> = inclusive.clone().collect();
                let got: Vec<$t> = pool.install(|| inclusive.clone().into_par_iter().collect());
                assert_eq!(got, want, "{inclusive:?}");
            }
        }
    )*};
}

#[test]
fn wide_ranges_collect_into_vecs_like_std() {
    // A regression: `collect` into a `Vec` needs positions, which an unindexed
    // range of known length must still give.
    check_wide_collect!(u32, i32, usize, isize, u64, i64, u128, i128);
}
